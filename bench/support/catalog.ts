// A benchmark's catalog: one category of `count` presets whose pictures are five real portraits
// (assets/seed/real-portraits), written straight to the database.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { categories, presets } from '../../src/server/db/schema/index.ts';
import { storeImage } from '../../src/server/features/catalog/images.ts';
import type { Running } from '../../src/server/runtime.ts';

const portraitsDir = fileURLToPath(new URL('../../assets/seed/real-portraits', import.meta.url));

/** The presets' ids, in order. */
export async function addBenchPresets(app: Running, count: number): Promise<string[]> {
  const { db } = app.deps.database;
  const pictures: Awaited<ReturnType<typeof storeImage>>[] = [];
  for (const name of ['hopper', 'chu', 'clyburn', 'duckworth', 'horsford'])
    pictures.push(
      await storeImage(app.deps.storage, ['presets', 'bench', name], {
        bytes: readFileSync(path.join(portraitsDir, `${name}.jpg`)),
      }),
    );
  await db
    .insert(categories)
    .values({ manualId: 'bench-portraits', displayName: 'Portraits', orderIndex: 0 });
  const ids = Array.from({ length: count }, (_, i) => `bench-preset-${i}`);
  await db.insert(presets).values(
    ids.map((id, i) => ({
      id,
      manualId: id,
      categoryId: 'bench-portraits',
      displayName: `Portrait ${i + 1}`,
      description: 'An official portrait, studio light',
      prompt: 'official portrait photo of {trigger}, studio light',
      featuredImage: pictures[i % pictures.length]!,
      orderIndex: i,
    })),
  );
  return ids;
}
