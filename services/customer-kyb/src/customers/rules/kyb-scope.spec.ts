import { effectiveKybScope, resolveKybScope } from './kyb-scope.js';

describe('kyb_scope (seed 1, seed 2.1, seed 5 last paragraph)', () => {
  it('seed 5: an allow-listed platform defaults to MINIMAL when kyb_scope is omitted, and may send FULL', () => {
    expect(resolveKybScope(undefined, true)).toEqual({ ok: true, value: 'MINIMAL' });
    expect(resolveKybScope(null, true)).toEqual({ ok: true, value: 'MINIMAL' });
    expect(resolveKybScope('FULL', true)).toEqual({ ok: true, value: 'FULL' });
    expect(resolveKybScope('MINIMAL', true)).toEqual({ ok: true, value: 'MINIMAL' });
  });

  it('seed 5: a platform not on the list defaults to FULL, and a MINIMAL request is a 422', () => {
    expect(resolveKybScope(undefined, false)).toEqual({ ok: true, value: 'FULL' });
    expect(resolveKybScope('FULL', false)).toEqual({ ok: true, value: 'FULL' });
    expect(resolveKybScope('MINIMAL', false)).toEqual({
      ok: false,
      problem:
        'MINIMAL is not available to this platform (it is not allow-listed for MINIMAL KYB); send FULL or omit kyb_scope',
    });
  });

  it('seed 2.1: kyb_scope is FULL or MINIMAL, exactly', () => {
    expect(resolveKybScope('minimal', true)).toEqual({ ok: false, problem: 'must be FULL or MINIMAL; got "minimal"' });
    expect(resolveKybScope(1, true)).toEqual({ ok: false, problem: 'must be FULL or MINIMAL; got a number' });
  });

  it('seed 2.1: a business with no scope set is treated as MINIMAL', () => {
    expect(effectiveKybScope(null)).toBe('MINIMAL');
    expect(effectiveKybScope(undefined)).toBe('MINIMAL');
    expect(effectiveKybScope('FULL')).toBe('FULL');
  });
});
