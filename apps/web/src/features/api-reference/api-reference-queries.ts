import { queryOptions } from '@tanstack/react-query';

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  'x-access'?: string;
  'x-client-protocol'?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** GET /api/openapi.json: the server's OpenAPI document (plain JSON, not the envelope). */
export const openApiQueryOptions = () =>
  queryOptions({
    queryKey: ['openapi'],
    staleTime: Infinity,
    queryFn: async (): Promise<OpenApiDocument> => {
      const response = await fetch('/api/openapi.json', { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()) as OpenApiDocument;
    },
  });

export interface ReferenceEntry {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

/** Every operation of the document, grouped by its first tag in the document's order. */
export function groupOperations(document: OpenApiDocument): Map<string, ReferenceEntry[]> {
  const groups = new Map<string, ReferenceEntry[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags?.[0] ?? 'other';
      const entries = groups.get(tag) ?? [];
      entries.push({ method: method.toUpperCase(), path, operation });
      groups.set(tag, entries);
    }
  }
  return groups;
}
