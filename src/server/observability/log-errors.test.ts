import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { serializeError } from './log-errors.ts';

function loggedLines() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ serializers: { err: serializeError } }, stream), lines };
}

describe('logged errors', () => {
  it('keep their message, code and stack but not the database client a driver hung on them', async () => {
    const { logger, lines } = loggedLines();
    const error = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      client: {
        processID: 17121,
        secretKey: -731834399,
        connectionParameters: { user: 'postgres' },
      },
    });
    logger.error({ err: error }, 'job queue error');
    await new Promise((resolve) => setImmediate(resolve));

    const err = lines[0]!.err as Record<string, unknown>;
    expect(err.message).toBe('terminating connection due to administrator command');
    expect(err.code).toBe('57P01');
    expect(String(err.stack)).toContain('log-errors.test.ts');
    expect(err).not.toHaveProperty('client');
    expect(JSON.stringify(lines[0])).not.toContain('secretKey');
  });
});
