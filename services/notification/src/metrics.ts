import { metrics, type ObservableResult } from '@opentelemetry/api';

/**
 * notification's metrics (issue 5 item 8), served by the telemetry package's Prometheus endpoint as
 * corridor_webhook_attempts_total, corridor_webhook_delivery_latency_seconds,
 * corridor_webhook_pending_deliveries and corridor_webhook_consumer_lag.
 */
const meter = metrics.getMeter('@corridor/notification');

export const attemptsCounter = meter.createCounter('corridor_webhook_attempts', {
  description: 'Webhook attempts by outcome, trigger and error class',
});

/** From the event's commit to the 2xx that confirmed its delivery: retries included. */
export const deliveryLatency = meter.createHistogram('corridor_webhook_delivery_latency_seconds', {
  description: 'Time from the event commit to the confirmed delivery',
  unit: 's',
  advice: { explicitBucketBoundaries: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 7200] },
});

/** Observed when scraped: the callbacks ask PostgreSQL and Kafka then, never on the delivery path. */
export function observeGauges(sources: {
  pendingDeliveries: () => Promise<number>;
  consumerLag: () => Promise<{ topic: string; lag: number }[]>;
}): void {
  meter
    .createObservableGauge('corridor_webhook_pending_deliveries', {
      description: 'Deliveries still to be confirmed or failed',
    })
    .addCallback(async (result: ObservableResult) => {
      const pending = await sources.pendingDeliveries().catch(() => undefined); // a scrape never fails
      if (pending !== undefined) result.observe(pending);
    });
  meter
    .createObservableGauge('corridor_webhook_consumer_lag', {
      description: 'Events on the topics not yet consumed by notification',
    })
    .addCallback(async (result: ObservableResult) => {
      for (const { topic, lag } of await sources.consumerLag().catch(() => [])) result.observe(lag, { topic });
    });
}
