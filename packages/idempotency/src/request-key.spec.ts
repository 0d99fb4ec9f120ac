import { Metadata } from '@grpc/grpc-js';
import { canonicalJson, idempotentCall, requestFingerprint } from './request-key.js';

describe('the caller side of an idempotent call', () => {
  describe('the request fingerprint', () => {
    it('is the same for one body however it is spaced or its keys ordered', () => {
      const sent = JSON.parse('{ "b": [1, {"y": null, "x": "é"}],\n  "a": {"d": 2, "c": true} }') as unknown;
      const reordered = { a: { c: true, d: 2 }, b: [1, { x: 'é', y: null }] };
      expect(canonicalJson(sent)).toBe('{"a":{"c":true,"d":2},"b":[1,{"x":"é","y":null}]}');
      expect(requestFingerprint('post', '/api/external/customer', sent)).toBe(
        requestFingerprint('POST', '/api/external/customer', reordered),
      );
    });

    it('differs with the body, the path, the method or the order of an array', () => {
      const base = requestFingerprint('POST', '/api/external/customer/c1/submit', { a: 1 });
      expect(requestFingerprint('POST', '/api/external/customer/c1/submit', { a: 2 })).not.toBe(base);
      expect(requestFingerprint('POST', '/api/external/customer/c2/submit', { a: 1 })).not.toBe(base);
      expect(requestFingerprint('PUT', '/api/external/customer/c1/submit', { a: 1 })).not.toBe(base);
      expect(requestFingerprint('POST', '/x', { a: [1, 2] })).not.toBe(requestFingerprint('POST', '/x', { a: [2, 1] }));
    });

    it('reads no body as {}', () => {
      expect(requestFingerprint('POST', '/x', undefined)).toBe(requestFingerprint('POST', '/x', {}));
    });
  });

  it('writes bigints as decimal strings and leaves out undefined members', () => {
    expect(canonicalJson({ b: 100050n, a: undefined })).toBe('{"b":"100050"}');
  });

  it('adds the key and the fingerprint to a copy of the metadata and hears a replay', () => {
    const metadata = new Metadata();
    metadata.set('business-id', 'b1');
    const call = idempotentCall(metadata, 'key-1', 'f1');
    expect(call.settings.metadata?.get('idempotency-key')).toEqual(['key-1']);
    expect(call.settings.metadata?.get('idempotency-fingerprint')).toEqual(['f1']);
    expect(call.settings.metadata?.get('business-id')).toEqual(['b1']);
    expect(metadata.get('idempotency-key')).toEqual([]);
    expect(call.replayed()).toBe(false);
    const answered = new Metadata();
    answered.set('idempotent-replayed', 'true');
    call.settings.onResponseMetadata?.(answered);
    expect(call.replayed()).toBe(true);
  });
});
