import { create, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import {
  AuditChangesSchema,
  BusinessDataSchema,
  IndividualDataSchema,
  KybDocumentTypeSchema,
  KybScopeSchema,
  OwnerDataSchema,
  OwnerFileSlotSchema,
  ReviewStatusSchema,
  VerificationStatusSchema,
  type AuditChanges,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { dataOfJson } from '@corridor/customer-json';
import { enumOf } from '../customer-input.js';
import type { AuditChangesInit } from './record-audit.js';
import type { CustomerType } from '../customers/rules/index.js';

/**
 * A stored audit row's changes read back typed (decision 0062): the rows of every release since
 * 0.1.0 hold the same JSON per action. A key or value a release never wrote is a defect, not
 * something to drop: the typed answer must say what the row says.
 */

type DataSchema = typeof IndividualDataSchema | typeof BusinessDataSchema | typeof OwnerDataSchema;

class StoredChanges {
  constructor(
    private readonly action: string,
    readonly json: JsonObject,
    /** The keys the action writes; undefined for a map (ids, field names). */
    keys?: readonly string[],
  ) {
    const unknown = Object.keys(json).filter((key) => keys && !keys.includes(key));
    if (unknown.length > 0) throw this.defect(`keys ${unknown.join(', ')}`);
  }

  defect(what: string): RangeError {
    return new RangeError(`audit changes of ${this.action} hold unexpected ${what}`);
  }

  has(key: string): boolean {
    return this.json[key] !== undefined;
  }

  text(key: string): string {
    const value = this.json[key];
    if (typeof value !== 'string') throw this.defect(`${key} ${JSON.stringify(value)}`);
    return value;
  }

  textOrNull(key: string): string | undefined {
    return this.json[key] === null ? undefined : this.text(key);
  }

  ids(key: string): string[] {
    const value = this.json[key];
    if (!Array.isArray(value) || !value.every((id) => typeof id === 'string')) {
      throw this.defect(`${key} ${JSON.stringify(value)}`);
    }
    return value as string[];
  }

  object(key: string, keys?: readonly string[]): StoredChanges {
    const value = this.json[key];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw this.defect(`${key} ${JSON.stringify(value)}`);
    }
    return new StoredChanges(`${this.action} ${key}`, value, keys);
  }

  word<E extends number>(key: string, descriptor: GenEnum<E>): E {
    return enumOf(descriptor, this.text(key));
  }

  /** `{id: word}`, e.g. a review's judgements. */
  words<E extends number>(key: string, descriptor: GenEnum<E>): Record<string, E> {
    const map = this.object(key);
    return Object.fromEntries(Object.keys(map.json).map((id) => [id, map.word(id, descriptor)]));
  }

  /** A record of data fields (only names of `schema`). */
  data<Desc extends DataSchema>(schema: Desc, json: JsonObject, key: string) {
    const names = schema.fields.map(({ name }) => name);
    const unknown = Object.keys(json).filter((name) => !names.includes(name));
    if (unknown.length > 0) throw this.defect(`${key} fields ${unknown.join(', ')}`);
    return dataOfJson(schema, json);
  }

  /** `{field: {from, to}}` as the typed change: each field's before in `from`, after in `to`. */
  dataChange<Desc extends typeof IndividualDataSchema | typeof BusinessDataSchema>(schema: Desc, key: string) {
    const changes = this.object(key);
    const from: JsonObject = {};
    const to: JsonObject = {};
    for (const name of Object.keys(changes.json)) {
      const pair = changes.object(name, ['from', 'to']);
      // fieldChanges wrote both, and only where they differ: a null pair would not read back.
      if (!pair.has('from') || !pair.has('to') || (pair.json.from === null && pair.json.to === null)) {
        throw this.defect(`${key}.${name} ${JSON.stringify(pair.json)}`);
      }
      from[name] = pair.json.from as JsonValue;
      to[name] = pair.json.to as JsonValue;
    }
    return { from: this.data(schema, from, key), to: this.data(schema, to, key) };
  }

  statusChange(key: string) {
    const change = this.object(key, ['from', 'to']);
    return { from: change.word('from', VerificationStatusSchema), to: change.word('to', VerificationStatusSchema) };
  }
}

/** The typed changes of a stored row, by its action; `type` is the customer's, whose data fields changed. */
export function storedChanges(action: string, json: JsonObject, type: CustomerType): AuditChanges {
  const read = (keys: readonly string[]) => new StoredChanges(action, json, keys);
  return create(AuditChangesSchema, { action: actionOf(action, read, type) });
}

function actionOf(
  action: string,
  read: (keys: readonly string[]) => StoredChanges,
  type: CustomerType,
): AuditChangesInit['action'] {
  switch (action) {
    case 'customer.created':
      return { case: 'customerCreated', value: { ownersAdded: read(['owners_added']).ids('owners_added') } };
    case 'customer.updated':
    case 'customer.kyc_data_updated': {
      const stored = read(['fields', 'owners_changed', 'owners_added']);
      const fields = !stored.has('fields')
        ? { case: undefined }
        : type === 'business'
          ? { case: 'businessFields' as const, value: stored.dataChange(BusinessDataSchema, 'fields') }
          : { case: 'individualFields' as const, value: stored.dataChange(IndividualDataSchema, 'fields') };
      return {
        case: 'customerUpdated',
        value: {
          fields,
          ownersChanged: stored.has('owners_changed') ? stored.ids('owners_changed') : [],
          ownersAdded: stored.has('owners_added') ? stored.ids('owners_added') : [],
        },
      };
    }
    case 'owner.removed': {
      const stored = read(['owner_id', 'owner']);
      const owner = stored.object(
        'owner',
        OwnerDataSchema.fields.map(({ name }) => name),
      );
      return {
        case: 'ownerRemoved',
        value: { ownerId: stored.text('owner_id'), owner: owner.data(OwnerDataSchema, owner.json, 'owner') },
      };
    }
    case 'customer.submitted': {
      const stored = read(['verification_status', 'to_review']);
      const toReview = stored.object('to_review', ['owners', 'documents']);
      return {
        case: 'customerSubmitted',
        value: {
          verificationStatus: stored.statusChange('verification_status'),
          toReview: { owners: toReview.ids('owners'), documents: toReview.ids('documents') },
        },
      };
    }
    case 'customer.reviewed': {
      const stored = read(['owners', 'documents', 'verification_status']);
      return {
        case: 'customerReviewed',
        value: {
          owners: stored.words('owners', ReviewStatusSchema),
          documents: stored.words('documents', ReviewStatusSchema),
          verificationStatus: stored.has('verification_status')
            ? stored.statusChange('verification_status')
            : undefined,
        },
      };
    }
    case 'customer.upgraded': {
      const stored = read(['kyb_scope', 'fields', 'owners_added', 'verification_status']);
      const scope = stored.object('kyb_scope', ['from', 'to']);
      return {
        case: 'customerUpgraded',
        value: {
          kybScope: {
            from: scope.textOrNull('from') === undefined ? undefined : scope.word('from', KybScopeSchema),
            to: scope.word('to', KybScopeSchema),
          },
          fields: stored.dataChange(BusinessDataSchema, 'fields'),
          ownersAdded: stored.ids('owners_added'),
          verificationStatus: stored.has('verification_status')
            ? stored.statusChange('verification_status')
            : undefined,
        },
      };
    }
    case 'customer.files_attached': {
      const stored = read(['id_file', 'id_file_back']);
      return {
        case: 'filesAttached',
        value: { idFile: stored.text('id_file'), idFileBack: stored.textOrNull('id_file_back') },
      };
    }
    case 'owner.file_attached': {
      const stored = read(['owner_id', 'slot', 'file_id', 'replaced']);
      return {
        case: 'ownerFileAttached',
        value: {
          ownerId: stored.text('owner_id'),
          slot: stored.word('slot', OwnerFileSlotSchema),
          fileId: stored.text('file_id'),
          replaced: stored.textOrNull('replaced'),
        },
      };
    }
    case 'document.registered': {
      const stored = read(['document_id', 'type', 'file_id']);
      return {
        case: 'documentRegistered',
        value: {
          documentId: stored.text('document_id'),
          type: stored.word('type', KybDocumentTypeSchema),
          fileId: stored.text('file_id'),
        },
      };
    }
    case 'document.replaced': {
      const stored = read(['document_id', 'file_id', 'type']);
      const fileId = stored.object('file_id', ['from', 'to']);
      const type = stored.object('type', ['from', 'to']);
      return {
        case: 'documentReplaced',
        value: {
          documentId: stored.text('document_id'),
          fileId: { from: fileId.text('from'), to: fileId.text('to') },
          type: { from: type.word('from', KybDocumentTypeSchema), to: type.word('to', KybDocumentTypeSchema) },
        },
      };
    }
    default:
      throw new RangeError(`audit action ${action} has no typed changes`);
  }
}
