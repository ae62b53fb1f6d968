/**
 * Joins class names, skipping the falsy ones, so components can write
 * `cn('base', isActive && 'active', className)`. Deliberately tiny: components are written so a
 * caller's classes add to the defaults rather than fight them, so no class-merging library is
 * needed.
 */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(' ');
}
