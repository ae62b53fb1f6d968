import { describe, expect, it } from 'vitest';
import {
  beforeClipPath,
  clampPercent,
  percentForKey,
  percentFromPointer,
  roundPercent,
} from './compare-slider-math.ts';

describe('percentFromPointer', () => {
  const box = { left: 100, width: 400 };

  it('maps the pointer across the box to 0-100', () => {
    expect(percentFromPointer(100, box)).toBe(0);
    expect(percentFromPointer(300, box)).toBe(50);
    expect(percentFromPointer(500, box)).toBe(100);
    expect(percentFromPointer(130, box)).toBe(7.5);
  });

  it('stays within the picture when the pointer leaves it while dragging', () => {
    expect(percentFromPointer(20, box)).toBe(0);
    expect(percentFromPointer(900, box)).toBe(100);
  });

  it('does not divide by a zero width (a picture not laid out yet)', () => {
    expect(percentFromPointer(300, { left: 0, width: 0 })).toBe(0);
  });
});

describe('percentForKey', () => {
  it('moves 5% per arrow: right and up towards "before", left and down back', () => {
    expect(percentForKey('ArrowRight', 50)).toBe(55);
    expect(percentForKey('ArrowUp', 50)).toBe(55);
    expect(percentForKey('ArrowLeft', 50)).toBe(45);
    expect(percentForKey('ArrowDown', 50)).toBe(45);
    expect(percentForKey('ArrowRight', 52.5)).toBe(57.5);
  });

  it('stops at the ends', () => {
    expect(percentForKey('ArrowRight', 98)).toBe(100);
    expect(percentForKey('ArrowRight', 100)).toBe(100);
    expect(percentForKey('ArrowLeft', 3)).toBe(0);
    expect(percentForKey('ArrowLeft', 0)).toBe(0);
  });

  it('jumps to the ends with Home and End, and by 20% with Page Up and Page Down', () => {
    expect(percentForKey('Home', 50)).toBe(0);
    expect(percentForKey('End', 50)).toBe(100);
    expect(percentForKey('PageUp', 50)).toBe(70);
    expect(percentForKey('PageDown', 10)).toBe(0);
  });

  it('leaves other keys to the page', () => {
    expect(percentForKey('Tab', 50)).toBeNull();
    expect(percentForKey('Enter', 50)).toBeNull();
    expect(percentForKey('a', 50)).toBeNull();
  });
});

describe('clip and value', () => {
  it('shows "before" from the left edge up to the divider', () => {
    expect(beforeClipPath(50)).toBe('inset(0 50% 0 0)');
    expect(beforeClipPath(0)).toBe('inset(0 100% 0 0)');
    expect(beforeClipPath(100)).toBe('inset(0 0% 0 0)');
    expect(beforeClipPath(33.333)).toBe('inset(0 66.67% 0 0)');
  });

  it('clamps and rounds for aria-valuenow', () => {
    expect(roundPercent(52.6)).toBe(53);
    expect(roundPercent(-4)).toBe(0);
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(clampPercent(140)).toBe(100);
  });
});
