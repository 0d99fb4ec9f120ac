import { DeadLetterService, DeadLetterStatus } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { startFakeGrpcService, type Answer, type ReceivedCall } from '@corridor/testing';

export const DEAD_LETTER_ID = '9c4e1a63-0000-4000-8000-00000000dead';
export const RECEIVED = new Date('2026-11-26T09:00:00.123Z');
export const RETRIED = new Date('2026-11-26T10:00:00.000Z');
/** The stored value: bytes that are no protobuf Event (a wire type 7 tag), as a consumer received them. */
export const GARBAGE = Buffer.from([0x0f, 0xff, 0x00, 0x42, 0x13]);
export const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

const at = (date: Date) => ({
  seconds: BigInt(Math.floor(date.getTime() / 1000)),
  nanos: (date.getTime() % 1000) * 1e6,
});

/** A dead letter as a DeadLetterService answers it, bytes included; `changes` in proto field names. */
export const deadLetter = (changes: Record<string, unknown> = {}) => ({
  id: DEAD_LETTER_ID,
  consumer: 'sandbox.notification',
  topic: 'sandbox.corridor.customer.v1',
  partition: 2,
  offset: 18734n,
  key: Buffer.from('4b8f3c2e'),
  value: GARBAGE,
  valueSize: GARBAGE.length,
  headers: [{ name: 'traceparent', value: Buffer.from(TRACEPARENT) }],
  error: 'not a corridor.events.v1.Event: premature EOF',
  receivedAt: at(RECEIVED),
  status: DeadLetterStatus.UNRESOLVED,
  retryCount: 0,
  ...changes,
});

/** The same as a list item: the service leaves out the raw bytes of a page. */
export const listedDeadLetter = (changes: Record<string, unknown> = {}) => ({
  ...deadLetter(changes),
  key: undefined,
  value: undefined,
  headers: [],
});

export const retriedAt = (changes: Record<string, unknown> = {}) =>
  deadLetter({ retryCount: 1, lastRetriedAt: at(RETRIED), ...changes });

/** One DeadLetterService answering canned dead letters, as notification or payments would. */
export function startFakeDeadLetterService() {
  const defaults: Record<string, Answer> = {
    listDeadLetters: () => ({ deadLetters: [listedDeadLetter()], cursorPage: { limit: 15 } }),
    getDeadLetter: () => ({ deadLetter: deadLetter() }),
    retryDeadLetter: () => ({ deadLetter: deadLetter(), outcome: 3 }),
  };
  return startFakeGrpcService(DeadLetterService, (method) => {
    const answer = defaults[method];
    if (!answer) throw new Error(`the fake DeadLetterService does not answer ${method}`);
    return answer;
  });
}

/**
 * notification's and payments' DeadLetterService side by side, for specs that check a route reaches
 * the one its path names. `calls` are both services', each tagged with the service that received
 * it; an answer set in `answers` is given by both. `reset()` forgets both services' calls.
 */
export async function startFakeConsumers() {
  const [notification, payments] = await Promise.all([startFakeDeadLetterService(), startFakeDeadLetterService()]);
  const fakes = { notification, payments };
  class BothAnswers extends Map<string, Answer> {
    override set(method: string, answer: Answer) {
      notification.answers.set(method, answer);
      payments.answers.set(method, answer);
      return super.set(method, answer);
    }
    override clear() {
      notification.answers.clear();
      payments.answers.clear();
      super.clear();
    }
  }
  return {
    get calls(): (ReceivedCall & { service: string })[] {
      return Object.entries(fakes).flatMap(([service, fake]) => fake.calls.map((call) => ({ ...call, service })));
    },
    answers: new BothAnswers(),
    reset() {
      notification.calls.length = 0;
      payments.calls.length = 0;
    },
    clients: { notificationDeadLetters: notification.client, paymentsDeadLetters: payments.client },
    async stop() {
      await Promise.all([notification.stop(), payments.stop()]);
    },
  };
}
