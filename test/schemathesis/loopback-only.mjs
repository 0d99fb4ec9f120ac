// Preloaded (NODE_OPTIONS=--import) into the notification process the schemathesis suite starts:
// the fuzzer registers webhook URLs of any host, and events it causes are delivered to them, so this
// process must never reach past this machine. Every host name resolves to 127.0.0.1 without asking a
// DNS server, and a connection to an address outside the loopback range is refused before a packet
// is sent. WEBHOOK_ALLOW_CIDRS=127.0.0.0/8 then lets those registrations through.
import dns from 'node:dns';
import net from 'node:net';
import { syncBuiltinESMExports } from 'node:module';

const LOOPBACK = '127.0.0.1';
const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const answer = (options) => {
  const all = typeof options === 'object' && options !== null && options.all === true;
  return all ? [{ address: LOOPBACK, family: 4 }] : { address: LOOPBACK, family: 4 };
};

dns.lookup = function lookupLoopback(hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  const result = answer(options);
  process.nextTick(() => (Array.isArray(result) ? done(null, result) : done(null, result.address, result.family)));
};
dns.promises.lookup = async (hostname, options) => answer(options);
syncBuiltinESMExports();

/** The host a Socket#connect call names, whatever its call shape (options, [options, cb], port+host). */
function hostOf(args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (first !== null && typeof first === 'object') return first.path ? undefined : (first.host ?? 'localhost');
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    return typeof args[1] === 'string' ? args[1] : 'localhost';
  }
  return undefined; // a Unix socket path
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function connectLoopbackOnly(...args) {
  const host = hostOf(args);
  const family = host === undefined ? 0 : net.isIP(host);
  if (family !== 0 && !loopback.check(host, family === 4 ? 'ipv4' : 'ipv6')) {
    const refused = Object.assign(
      new Error(`connect ECONNREFUSED ${host} (the schemathesis suite stays on 127.0.0.1)`),
      {
        code: 'ECONNREFUSED',
      },
    );
    process.nextTick(() => this.destroy(refused));
    return this;
  }
  return connect.apply(this, args);
};
