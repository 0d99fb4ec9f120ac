import { Patch } from './patch.js';

interface Fields {
  website: string;
  trading_name: string;
  expected_monthly_payments: number;
}

describe('Patch (seed 2.1 rule 2)', () => {
  it('seed 2.1 rule 2: a property sent as null writes null; an omitted property is left unchanged', () => {
    const patch = new Patch<Fields>().set('website', null).set('expected_monthly_payments', 40);
    const current = { website: 'https://acme.example', trading_name: 'Acme', expected_monthly_payments: 10 };
    expect(patch.applyTo(current)).toEqual({ website: null, trading_name: 'Acme', expected_monthly_payments: 40 });
  });

  it('keeps presence: null sent, value sent and omitted are three different answers', () => {
    const patch = new Patch<Fields>().set('website', null).set('trading_name', 'Acme');
    expect(patch.has('website')).toBe(true);
    expect(patch.get('website')).toBeNull();
    expect(patch.get('trading_name')).toBe('Acme');
    expect(patch.has('expected_monthly_payments')).toBe(false);
    expect(patch.get('expected_monthly_payments')).toBeUndefined();
    expect(patch.values).toEqual({ website: null, trading_name: 'Acme' });
    expect(Object.keys(patch.values)).not.toContain('expected_monthly_payments');
  });

  it('gives the sent properties as a field mask, in the order sent, once each', () => {
    const patch = new Patch<Fields>().set('trading_name', 'A').set('website', null).set('trading_name', 'B');
    expect(patch.fieldMask).toEqual(['trading_name', 'website']);
    expect(patch.get('trading_name')).toBe('B');
    expect(new Patch<Fields>().isEmpty).toBe(true);
    expect(patch.isEmpty).toBe(false);
  });

  it('does not change the current value it is applied to', () => {
    const current = { website: 'https://acme.example' };
    new Patch<Fields>().set('website', null).applyTo(current);
    expect(current).toEqual({ website: 'https://acme.example' });
  });
});
