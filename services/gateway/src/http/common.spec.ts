import { z } from '@corridor/config';
import { parseBody } from './common.js';
import { HttpError } from './errors.js';

describe('parseBody', () => {
  const schema = z.strictObject({ name: z.string() });

  it('names an unknown "__proto__" key like any other, with a 422 and not a TypeError', () => {
    const body = JSON.parse('{"name":"Acme","__proto__":{"admin":true}}') as unknown;
    const error = (() => {
      try {
        parseBody(schema, body);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(HttpError);
    expect(Object.keys((error as HttpError).errors ?? {})).toEqual(['__proto__']);
    expect(error).toMatchObject({ httpStatus: 422, errors: { ['__proto__']: ['is not a recognised field'] } });
  });
});
