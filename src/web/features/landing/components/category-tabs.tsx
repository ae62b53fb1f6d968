import { useRef, type KeyboardEvent } from 'react';
import { cn } from '../../../lib/cn.ts';

export interface CategoryTab {
  id: string;
  label: string;
  emoji?: string | null;
}

export interface CategoryTabsProps {
  /** Prefix for element ids, unique per page (tab `${idPrefix}-tab-${id}`, panel `${idPrefix}-panel`). */
  idPrefix: string;
  label: string;
  tabs: readonly CategoryTab[];
  selected: number;
  /** 0..1 of the selected tab's time, drawn under it while auto-advancing; null hides it. */
  progress: number | null;
  onSelect: (index: number) => void;
  tone?: 'light' | 'dark';
}

/**
 * Tabs without Radix (the landing chunk stays small): arrow keys, Home and End move between
 * tabs, selecting as they go, as in the WAI-ARIA tabs pattern with automatic activation.
 */
export function CategoryTabs({
  idPrefix,
  label,
  tabs,
  selected,
  progress,
  onSelect,
  tone = 'light',
}: CategoryTabsProps) {
  const list = useRef<HTMLDivElement>(null);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = {
      ArrowRight: selected + 1,
      ArrowLeft: selected - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = (target + tabs.length) % tabs.length;
    onSelect(next);
    list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  }

  return (
    <div
      ref={list}
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      className={cn(
        // Scrolls sideways on narrow phones instead of wrapping or squeezing the labels.
        'mx-auto flex max-w-full gap-1 overflow-x-auto rounded-full p-1 [scrollbar-width:none]',
        tone === 'dark' ? 'bg-white/10' : 'bg-neutral-200/60',
      )}
    >
      {tabs.map((tab, index) => {
        const active = index === selected;
        return (
          <button
            key={tab.id}
            id={`${idPrefix}-tab-${tab.id}`}
            type="button"
            role="tab"
            aria-selected={active}
            aria-controls={`${idPrefix}-panel`}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(index)}
            className={cn(
              'relative inline-flex h-10 shrink-0 cursor-pointer items-center gap-1.5 overflow-hidden rounded-full px-4 text-sm font-medium whitespace-nowrap transition-colors',
              tone === 'dark'
                ? active
                  ? 'bg-white text-neutral-950'
                  : 'text-neutral-300 hover:text-white'
                : active
                  ? 'bg-white text-neutral-950 shadow-sm'
                  : 'text-neutral-600 hover:text-neutral-950',
            )}
          >
            {tab.emoji ? <span aria-hidden="true">{tab.emoji}</span> : null}
            {tab.label}
            {active && progress !== null ? (
              // The time left on this tab: a hairline that fills, decorative for screen readers.
              <span
                aria-hidden="true"
                data-testid={`${idPrefix}-progress`}
                className="absolute inset-x-3 bottom-1 h-0.5 overflow-hidden rounded-full bg-neutral-200"
              >
                <span
                  className="block h-full origin-left rounded-full bg-accent-600"
                  style={{ transform: `scaleX(${progress})` }}
                />
              </span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}
