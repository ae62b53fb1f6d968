/**
 * Joins class names, skipping the falsy ones, so components can write
 * `cn('base', isActive && 'active', className)`. Deliberately tiny, with no class-merging
 * library: a caller's classes must add to a component's defaults, not fight them. Two plain
 * utilities for the same property (`hidden` against a built-in `inline-flex`) have no reliable
 * winner; use a prop (`size`, `variant`) or a variant utility (`max-md:hidden`), which Tailwind
 * always emits after the plain ones.
 */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}
