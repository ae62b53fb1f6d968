import { describe, expect, it } from 'vitest';
import { landing } from '../../../../common/product/landing.ts';
import { timings } from '../../../../common/product/timings.ts';
import { advanceDemo } from './prompt-demo.tsx';

const tick = timings.demo.typingMsPerChar;

describe('advanceDemo', () => {
  it('types, pauses, reveals and holds each of the 5 prompts in turn, then starts over', () => {
    let state: Parameters<typeof advanceDemo>[0] = {
      prompt: 0,
      typed: 0,
      phase: 'typing',
      elapsed: 0,
    };
    let now = 0;
    // When each prompt's picture was fully shown ('done'), and each prompt's typing started.
    const started: { prompt: number; at: number }[] = [{ prompt: 0, at: 0 }];
    const finished: { prompt: number; at: number; typed: number }[] = [];
    while (started.length <= landing.demoPrompts.length) {
      const before = state;
      state = advanceDemo(state, tick);
      now += tick;
      if (state.phase === 'done' && before.phase !== 'done') {
        finished.push({ prompt: state.prompt, at: now, typed: state.typed });
      }
      if (state.phase === 'typing' && before.phase === 'done') {
        started.push({ prompt: state.prompt, at: now });
        expect(state.typed).toBe(0);
      }
    }

    expect(landing.demoPrompts).toHaveLength(5);
    expect(started.map((entry) => entry.prompt)).toEqual([0, 1, 2, 3, 4, 0]);
    expect(finished.map((entry) => entry.prompt)).toEqual([0, 1, 2, 3, 4]);
    finished.forEach((entry, index) => {
      const prompt = landing.demoPrompts[index]!;
      // The whole prompt was typed before the picture showed.
      expect(entry.typed).toBe(prompt.length);
      // 25 ms a character, the 300 ms pause, the 300 ms reveal; then the 2500 ms hold.
      const shownAfter =
        prompt.length * tick + timings.demo.pauseMs + timings.carousel.transitionMs;
      expect(entry.at - started[index]!.at).toBe(shownAfter);
      expect(started[index + 1]!.at - entry.at).toBe(timings.demo.holdMs);
    });
  });
});
