/** What a field holds once a patch is applied: a value, null (cleared), or absent (never set). */
export type Nullable<T> = { [K in keyof T]?: T[K] | null };

/**
 * An update as sent (seed 2.1 rule 2): a property sent as null writes null, an omitted property is
 * left unchanged. Presence is explicit, so it survives every hop: `fieldMask` is what travels as a
 * gRPC FieldMask, `values` holds only the present properties.
 */
export class Patch<T extends object> {
  private readonly present: Nullable<T> = {};
  private readonly order: (keyof T & string)[] = [];

  /** Records a present property (validators only: by then `value` is known to be valid). */
  set<K extends keyof T & string>(key: K, value: T[K] | null): this {
    if (!this.order.includes(key)) this.order.push(key);
    this.present[key] = value;
    return this;
  }

  has(key: keyof T & string): boolean {
    return this.order.includes(key);
  }

  /** The value sent: a value, null when the platform sent null, undefined when it omitted it. */
  get<K extends keyof T & string>(key: K): T[K] | null | undefined {
    return this.present[key];
  }

  /** The present properties' names, in the order sent: the update's FieldMask paths. */
  get fieldMask(): readonly (keyof T & string)[] {
    return this.order;
  }

  get isEmpty(): boolean {
    return this.order.length === 0;
  }

  /** The present properties only (null included); omitted ones are not keys of the result. */
  get values(): Nullable<T> {
    return { ...this.present };
  }

  /** `current` with the present properties written over it, null included; the rest untouched. */
  applyTo<C extends Nullable<T>>(current: C): C {
    return { ...current, ...this.present };
  }
}
