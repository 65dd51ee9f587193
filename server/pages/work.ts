// What each page module exports: its work, what it shows for this visitor and request. A file of
// its own, so that the pages and the room that mounts them import it without a cycle.
import type { Request } from 'express';
import type { PageCatalog } from './catalog.ts';
import type { Page } from './render.ts';
import type { Visitor } from './visitors.ts';

/** A page's work: what it shows, for this visitor and request. */
export type PageWork = (req: Request, visitor: Visitor, catalog: PageCatalog) => Promise<Page>;
