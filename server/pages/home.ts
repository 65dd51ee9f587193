// The home page: the projects and versions the credential reaches, branches beside environments.
import type { PageWork } from './work.ts';
import { pageUrls } from './urls.ts';

export const homePage: PageWork = async (_req, visitor, catalog) => {
  const projects = (await catalog.projects(visitor.credential)).map(({ project, versions }) => ({
    name: project.name, slug: project.slug,
    groups: (['branch', 'environment'] as const).map((type) => ({
      type,
      versions: versions.filter((version) => version.type === type)
        .map((version) => ({ slug: version.slug, href: pageUrls.version({ project: project.slug, type: version.type, slug: version.slug }) })),
    })).filter((group) => group.versions.length > 0),
  }));
  return { template: 'home', title: 'Projects', data: { projects, crumbs: [] } };
};
