/**
 * A bench's whole run: `main`, then `cleanUp` whatever happened, so what it started is stopped on
 * success, on failure (one line naming it, exit code 1), on Ctrl-C (130) and, given `limitMs`, when
 * a stalled run is still going after that long (1). `cleanUp` may be called twice (Ctrl-C during it).
 */
export async function runBench(
  main: () => Promise<void>,
  cleanUp: () => Promise<unknown>,
  options: { interrupted?: string; limitMs?: number } = {},
): Promise<void> {
  process.once('SIGINT', () => {
    console.error(`\ninterrupted: ${options.interrupted ?? 'stopping the processes the bench started'}`);
    void cleanUp().finally(() => process.exit(130));
  });
  const { limitMs } = options;
  const watchdog =
    limitMs === undefined
      ? undefined
      : setTimeout(() => {
          console.error(`bench failed: still running after ${limitMs / 60_000} minutes`);
          void cleanUp().finally(() => process.exit(1));
        }, limitMs);
  try {
    await main();
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}
