import { describe, expect, it } from 'vitest';
import { readStudioQuery, writeStudioQuery } from './studio-query.ts';

const read = (query: string) => readStudioQuery(new URLSearchParams(query));

describe('readStudioQuery', () => {
  it('defaults to generation / presets', () => {
    expect(read('')).toEqual({ main: 'generation', sub: 'presets' });
    expect(read('main=nope&sub=nope')).toEqual({ main: 'generation', sub: 'presets' });
  });

  it('reads main and sub', () => {
    expect(read('main=tryon&sub=custom')).toEqual({ main: 'tryon', sub: 'custom' });
    expect(read('main=generation&sub=generated')).toEqual({ main: 'generation', sub: 'generated' });
  });

  it('maps the older forms', () => {
    expect(read('tab=generated')).toEqual({ main: 'generation', sub: 'generated' });
    expect(read('tab=custom')).toEqual({ main: 'generation', sub: 'custom' });
    expect(read('tab=tryon')).toEqual({ main: 'tryon', sub: 'presets' });
    expect(read('view=bulk')).toEqual({ main: 'generation', sub: 'custom' });
  });

  it('writes the canonical form and drops the older one', () => {
    const params = writeStudioQuery(new URLSearchParams('tab=generated&payment=success'), {
      main: 'generation',
      sub: 'custom',
    });
    expect(params.toString()).toBe('payment=success&main=generation&sub=custom');
  });
});
