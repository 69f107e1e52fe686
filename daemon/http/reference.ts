/** A self-contained HTML reference rendered from the OpenAPI document (no CDN, works offline). */

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function schemaBlock(schema: unknown): string {
  return `<pre>${escape(JSON.stringify(schema, null, 2))}</pre>`;
}

export function renderReference(doc: OpenApiDoc): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'Other';
      const params = (op.parameters ?? [])
        .map((p) => `<li><code>${escape(p.name)}</code> (${p.in}${p.required ? ', required' : ''})</li>`).join('');
      const body = op.requestBody?.content?.['application/json']?.schema;
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => {
          const schema = r.content?.['application/json']?.schema;
          const files = Object.keys(r.content ?? {}).filter((type) => type !== 'application/json');
          const also = files.length > 0 ? ` <small>(also ${files.map((type) => `<code>${escape(type)}</code>`).join(', ')})</small>` : '';
          return `<details><summary><b>${status}</b> ${escape(r.description ?? '')}${also}</summary>${schema ? schemaBlock(schema) : ''}</details>`;
        }).join('');
      const id = op.operationId ? ` <small><code>${escape(op.operationId)}</code></small>` : '';
      const html = `<section><h3><span class="m">${method.toUpperCase()}</span> <code>${escape(path)}</code>${id}</h3>
<p>${escape(op.summary ?? '')}</p>${params ? `<ul>${params}</ul>` : ''}
${body ? `<details><summary>Request body</summary>${schemaBlock(body)}</details>` : ''}${responses}</section>`;
      (byTag.get(tag) ?? byTag.set(tag, []).get(tag)!).push(html);
    }
  }
  const tagDescriptions = new Map((doc.tags ?? []).map((t) => [t.name, t.description ?? '']));
  const sections = [...byTag].map(([tag, ops]) => `<h2>${escape(tag)}</h2><p>${escape(tagDescriptions.get(tag) ?? '')}</p>${ops.join('\n')}`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(doc.info.title)} API reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2em auto;padding:0 1em}code,pre{font:13px ui-monospace,monospace}
pre{background:#f6f6f6;padding:.6em;overflow:auto}section{border-top:1px solid #ddd;padding:.4em 0}.m{background:#234;color:#fff;padding:0 .4em;border-radius:3px}</style>
</head><body><h1>${escape(doc.info.title)} ${escape(doc.info.version)}</h1><p>${escape(doc.info.description ?? '')}</p>
<p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a>. Every <code>/v1</code> request needs <code>Authorization: Bearer &lt;API key&gt;</code>.</p>
${sections}</body></html>`;
}
