import { expect } from 'vitest';
import type { GenerationRequest } from '../../src/server/adapters/engine/generation-engine.ts';
import { EngineError } from '../../src/server/adapters/engine/training-engine.ts';
import type { RecordedRequest } from '../fakes/provider-fake-kit.ts';

/** What the tests of the GPU-service engines (Replicate, fal, FASHN) ask of them alike. */

/** The EngineError a call fails with (the test fails when it resolves or throws anything else). */
export async function engineError(work: Promise<unknown>): Promise<EngineError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

/**
 * The requests a fake received since `from` (an index into its `requests`), and the same as
 * `METHOD /path` lines. The fake is read when asked: test files start theirs in `beforeAll`.
 */
export function requestLog(fake: () => { requests: RecordedRequest[] }) {
  const since = (from: number) => fake().requests.slice(from);
  const lines = (from: number) => since(from).map((request) => `${request.method} ${request.path}`);
  return { since, lines };
}

/** A generous deadline for one generation against a fake. */
export const deadline = () => AbortSignal.timeout(10_000);

/**
 * Generation requests for the trained weights `defaults` names, each with its own id and prompt
 * (`take N`), so no two are alike.
 */
export function generationRequests(defaults: () => Pick<GenerationRequest, 'weights' | 'gender'>) {
  let count = 0;
  return (overrides: Partial<GenerationRequest> = {}): GenerationRequest => {
    count += 1;
    return {
      generationId: `gen_${count}`,
      userId: 'user_1',
      triggerWord: 'lkns7x',
      prompt: `a professional headshot photo of lkns7x, studio lighting, take ${count}`,
      preset: null,
      ...defaults(),
      ...overrides,
    };
  };
}
