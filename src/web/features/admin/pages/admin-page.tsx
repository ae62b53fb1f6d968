import { adminPageMessages } from '../../../../common/messages/admin.ts';
import { Container } from '../../../components/ui/container.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { CategoriesPanel } from '../components/categories-panel.tsx';
import { CostsPanel } from '../components/costs-panel.tsx';
import { ExamplePhotosPanel, QuizImagesPanel } from '../components/media-panels.tsx';
import { PresetsPanel } from '../components/presets-panel.tsx';

const text = adminPageMessages;

/** /admin: the operator's catalog management (admin role only; see AdminGate). */
export function AdminPage() {
  usePageTitle(text.title);
  return (
    <Container className="flex flex-col gap-8 py-8 md:py-12">
      <PageHeader title={text.title} description={text.subtitle} />
      <Tabs defaultValue="categories">
        <TabsList aria-label={text.title}>
          <TabsTrigger value="categories">{text.tabs.categories}</TabsTrigger>
          <TabsTrigger value="presets">{text.tabs.presets}</TabsTrigger>
          <TabsTrigger value="examples">{text.tabs.examplePhotos}</TabsTrigger>
          <TabsTrigger value="quiz">{text.tabs.quizImages}</TabsTrigger>
          <TabsTrigger value="costs">{text.tabs.costs}</TabsTrigger>
        </TabsList>
        <TabsContent value="categories">
          <CategoriesPanel />
        </TabsContent>
        <TabsContent value="presets">
          <PresetsPanel />
        </TabsContent>
        <TabsContent value="examples">
          <ExamplePhotosPanel />
        </TabsContent>
        <TabsContent value="quiz">
          <QuizImagesPanel />
        </TabsContent>
        <TabsContent value="costs">
          <CostsPanel />
        </TabsContent>
      </Tabs>
    </Container>
  );
}
