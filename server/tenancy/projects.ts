// Projects (the `projects` collection): the tenants, each named by a unique slug.
import type { Collection, Db } from 'mongodb';
import { newId } from '../ids.ts';
import { insertUnique, withoutId, type Stored } from './stored.ts';

export interface Project {
  id: string;
  slug: string;
  name: string;
  createdAt: Date;
}

export class Projects {
  readonly #projects: Collection<Stored<Project>>;
  readonly #idPrefix: string;
  readonly #isProjectId: (ref: string) => boolean;

  constructor(db: Db, idPrefix: string, isProjectId: (ref: string) => boolean) {
    this.#projects = db.collection('projects');
    this.#idPrefix = idPrefix;
    this.#isProjectId = isProjectId;
  }

  async createIndexes(): Promise<void> {
    await this.#projects.createIndex({ slug: 1 }, { unique: true, name: 'slug' });
  }

  /** Throws DuplicateSlug when the slug is taken. */
  async create(slug: string, name: string): Promise<Project> {
    const project: Project = { id: newId(this.#idPrefix), slug, name, createdAt: new Date() };
    await insertUnique(this.#projects, { _id: project.id, ...project }, `project slug "${slug}" is taken`);
    return project;
  }

  /** By id (`proj_…`) or by slug. */
  async find(ref: string): Promise<Project | null> {
    return withoutId(await this.#projects.findOne(this.#isProjectId(ref) ? { _id: ref } : { slug: ref }));
  }

  async list(): Promise<Project[]> {
    return (await this.#projects.find().sort({ slug: 1 }).toArray()).map((document) => withoutId(document));
  }

  /** 0 or 1: whether any project exists. */
  async count(): Promise<number> {
    return this.#projects.countDocuments({}, { limit: 1 });
  }
}
