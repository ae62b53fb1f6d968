import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plus, Star } from 'lucide-react';
import type { AdminCategory } from '../../../../common/api/admin.ts';
import { adminPageMessages } from '../../../../common/messages/admin.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormField, fieldHintId } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { adminApi, adminCategoriesQuery } from '../admin-api.ts';
import {
  AdminFormDialog,
  AdminRowActions,
  CheckboxField,
  MoveButtons,
  useAdminAction,
  useAdminSave,
} from './admin-controls.tsx';
import {
  AdminList,
  AdminListRow,
  AdminRowTitle,
  PanelHeader,
  PanelState,
} from './admin-layout.tsx';

const text = adminPageMessages;

export function CategoriesPanel() {
  const query = useQuery(adminCategoriesQuery());
  const { run, busy } = useAdminAction();
  const [editing, setEditing] = useState<AdminCategory | 'new' | null>(null);
  const categories = query.data?.categories ?? [];

  return (
    <section aria-labelledby="admin-categories" className="flex flex-col gap-5">
      <PanelHeader
        id="admin-categories"
        title={text.tabs.categories}
        action={
          <Button size="sm" onClick={() => setEditing('new')}>
            <Plus aria-hidden="true" className="size-4" />
            {text.newCategory}
          </Button>
        }
      />
      <PanelState query={query} empty={categories.length === 0 ? text.noCategories : null}>
        <AdminList>
          {categories.map((category, index) => (
            <AdminListRow key={category.manualId} dimmed={!category.active}>
              <MoveButtons
                name={category.displayName}
                items={categories}
                index={index}
                disabled={busy !== null}
                onReorder={(next) =>
                  void run('order', () =>
                    adminApi.reorderCategories(next.map((item) => item.manualId)),
                  )
                }
              />
              <span aria-hidden="true" className="w-8 shrink-0 text-center text-2xl">
                {category.emoji}
              </span>
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <AdminRowTitle name={category.displayName} active={category.active}>
                  {category.featured ? (
                    <Badge variant="accent">
                      <Star aria-hidden="true" />
                      {text.featured}
                    </Badge>
                  ) : null}
                </AdminRowTitle>
                <p className="text-xs text-neutral-500">
                  {category.manualId} · {text.presetsCount(category.presetCount)}
                </p>
              </div>
              <AdminRowActions
                name={category.displayName}
                active={category.active}
                toggling={busy === category.manualId}
                onEdit={() => setEditing(category)}
                onToggle={() =>
                  void run(
                    category.manualId,
                    () => adminApi.updateCategory(category.manualId, { active: !category.active }),
                    text.saved,
                  )
                }
              />
            </AdminListRow>
          ))}
        </AdminList>
      </PanelState>
      {editing ? (
        <CategoryDialog
          category={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

function CategoryDialog({
  category,
  onClose,
}: {
  category: AdminCategory | null;
  onClose: () => void;
}) {
  const { save, saving, error } = useAdminSave();
  const [manualId, setManualId] = useState(category?.manualId ?? '');
  const [displayName, setDisplayName] = useState(category?.displayName ?? '');
  const [emoji, setEmoji] = useState(category?.emoji ?? '');
  const [featured, setFeatured] = useState(category?.featured ?? false);

  const submit = async () => {
    const body = { displayName: displayName.trim(), emoji: emoji.trim() || null, featured };
    const result = await save(
      () =>
        category
          ? adminApi.updateCategory(category.manualId, body)
          : adminApi.createCategory({ ...body, manualId: manualId.trim() }),
      category ? text.saved : text.created,
    );
    if (result) onClose();
  };

  return (
    <AdminFormDialog
      title={category ? text.editCategory : text.newCategory}
      description={text.subtitle}
      error={error}
      saving={saving}
      submitLabel={category ? text.save : text.create}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      {category ? null : (
        <FormField id="category-key" label={text.key} hint={text.keyHint}>
          <Input
            id="category-key"
            required
            value={manualId}
            onChange={(event) => setManualId(event.target.value)}
            aria-describedby={fieldHintId('category-key')}
            autoComplete="off"
          />
        </FormField>
      )}
      <FormField id="category-name" label={text.displayName}>
        <Input
          id="category-name"
          required
          value={displayName}
          onChange={(event) => setDisplayName(event.target.value)}
          autoComplete="off"
        />
      </FormField>
      <FormField id="category-emoji" label={text.emoji}>
        <Input
          id="category-emoji"
          value={emoji}
          onChange={(event) => setEmoji(event.target.value)}
          className="w-24"
          autoComplete="off"
        />
      </FormField>
      <CheckboxField
        id="category-featured"
        label={text.featured}
        checked={featured}
        onChange={setFeatured}
      />
    </AdminFormDialog>
  );
}
