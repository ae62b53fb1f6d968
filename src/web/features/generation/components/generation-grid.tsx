import type { Generation } from '../generation-api.ts';
import { GenerationCard, generationGridClasses } from './generation-card.tsx';

/**
 * Generations as cards in the grid (the Generated tab, a bulk job); `onOpen` opens one (in the
 * generation modal). With `selection`, each card is a checkbox of it instead.
 */
export function GenerationGrid({
  generations,
  now,
  onOpen,
  selection,
  testId,
}: {
  generations: readonly Generation[];
  now: Date;
  onOpen: (id: string) => void;
  selection?: { selected: ReadonlySet<string>; onToggle: (id: string) => void } | null;
  testId?: string;
}) {
  return (
    <ul className={generationGridClasses} data-testid={testId}>
      {generations.map((generation) => (
        <li key={generation.id}>
          <GenerationCard
            generation={generation}
            now={now}
            onOpen={() => onOpen(generation.id)}
            {...(selection
              ? {
                  selection: {
                    selected: selection.selected.has(generation.id),
                    onToggle: () => selection.onToggle(generation.id),
                  },
                }
              : {})}
          />
        </li>
      ))}
    </ul>
  );
}
