export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageMeta {
  current_page: number;
  from: number | null;
  last_page: number;
  path: string;
  per_page: number;
  to: number | null;
  total: number;
}

export interface PageLinks {
  first: string;
  last: string;
  prev: string | null;
  next: string | null;
}

export function offsetOf(req: PageRequest): number {
  return (req.page - 1) * req.perPage;
}

/**
 * Builds `meta` and `links` for a list. `path` is the absolute URL of the list without its query;
 * `query` holds the other parameters (filters), kept on every link.
 */
export function pageEnvelope(
  req: PageRequest,
  total: number,
  shown: number,
  path: string,
  query: Record<string, string>,
): { meta: PageMeta; links: PageLinks } {
  const lastPage = Math.max(1, Math.ceil(total / req.perPage));
  const from = shown > 0 ? offsetOf(req) + 1 : null;
  const to = shown > 0 ? offsetOf(req) + shown : null;
  const link = (page: number) => {
    const params = new URLSearchParams({ ...query, page: String(page), per_page: String(req.perPage) });
    return `${path}?${params.toString()}`;
  };
  return {
    meta: { current_page: req.page, from, last_page: lastPage, path, per_page: req.perPage, to, total },
    links: {
      first: link(1),
      last: link(lastPage),
      prev: req.page > 1 ? link(Math.min(req.page - 1, lastPage)) : null,
      next: req.page < lastPage ? link(req.page + 1) : null,
    },
  };
}
