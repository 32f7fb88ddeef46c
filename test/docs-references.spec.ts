import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * The repository explains itself: no file sends a reader to a folder a clone does not have, every
 * citation of a decision names a section docs/decisions.md has, and every `docs/…` file and every
 * relative Markdown link points at a file that exists (and, for a Markdown heading anchor, at a
 * heading that exists). A citation still written the old way ("decisions", a space, "§N") is
 * refused too: `node scripts/rewrite-doc-references.mjs` rewrites those.
 */

const ROOT = join(__dirname, '..');

// Built from parts so that this file does not hold what it looks for.
const OUTSIDE = [['..', 'shared'].join('/'), ['', 'work', 'shared'].join('/')];
const SECTION = '\u00a7';

const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|md|json|ya?ml|sh|html|css|snap|example)$|(^|\/)(Dockerfile|run|\.dockerignore|\.gitignore)$/;
/** Third-party documents copied unchanged and package metadata: nothing of ours to check. */
const NOT_OURS = [/^package-lock\.json$/, /^test\/contracts\/[^/]+\/(reference|schemas)\//];
/** Files whose `docs/…` strings are test fixtures, not references (this one's own below). */
const FIXTURE_PATHS = new Set(['docker/build-context.test.mjs', 'test/docs-references.spec.ts']);

export interface DocFile {
  path: string;
  text: string;
}

export interface DocsTree {
  exists(path: string): boolean;
  /** The heading anchors of a Markdown file of the repository (GitHub's slugs). */
  anchors(path: string): Set<string>;
}

/** The `## N. Title` sections of docs/decisions.md. */
export function decisionSections(markdown: string): Set<number> {
  return new Set([...markdown.matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1])));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

export function markdownAnchors(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((match) => headingAnchor(match[1])));
}

// A citation: "decisions" (or "docs/decisions.md"), a space and a list of § numbers joined by
// commas, slashes or "and"; every number of the list is checked.
const CITATION = new RegExp(`(?<![\\w-])(docs/)?[Dd]ecisions(\\.md)? (${SECTION}\\d+(?:(?:\\s*[,/]\\s*|\\s+and\\s+)${SECTION}\\d+)*)`, 'g');
// A file of docs/ named from the repository root, not a URL's path (".../docs/api/...").
const DOCS_PATH = /(?<![\w./-])docs\/[\w-]+(?:\/[\w-]+)*\.[a-z]+/g;
// A Markdown link's target: [text](target) or [text](<target>).
const MARKDOWN_LINK = /\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g;

/** Every problem in `files`, one line each (`path:line: what`). */
export function referenceProblems(files: DocFile[], sections: Set<number>, tree: DocsTree): string[] {
  const problems: string[] = [];
  for (const file of files) {
    file.text.split('\n').forEach((line, index) => {
      const at = `${file.path}:${index + 1}`;
      for (const outside of OUTSIDE) {
        if (line.includes(outside)) problems.push(`${at}: refers to ${outside}, which a clone does not have`);
      }
      for (const match of line.matchAll(CITATION)) {
        if (!match[1] && !match[2]) problems.push(`${at}: "${match[0]}" should cite docs/decisions.md`);
        for (const number of match[3].match(/\d+/g) ?? []) {
          if (!sections.has(Number(number))) problems.push(`${at}: docs/decisions.md has no ${SECTION}${number}`);
        }
      }
      if (!FIXTURE_PATHS.has(file.path)) {
        for (const [path] of line.matchAll(DOCS_PATH)) {
          if (!tree.exists(path)) problems.push(`${at}: ${path} does not exist`);
        }
      }
      if (file.path.endsWith('.md')) {
        for (const [, target] of line.matchAll(MARKDOWN_LINK)) {
          if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(target)) continue; // http:, mailto:, …
          const [pathPart, anchor] = target.split('#', 2);
          const linked = pathPart === '' ? file.path : normalize(join(dirname(file.path), decodeURIComponent(pathPart)));
          if (linked.startsWith('..')) problems.push(`${at}: ${target} leaves the repository`);
          else if (!tree.exists(linked)) problems.push(`${at}: the link ${target} does not exist`);
          else if (anchor && linked.endsWith('.md') && !tree.anchors(linked).has(anchor)) problems.push(`${at}: ${linked} has no heading #${anchor}`);
        }
      }
    });
  }
  return problems;
}

/** The repository's files: what git tracks, or, in a copy without .git, what is on disk. */
function repositoryFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\0')
      .filter(Boolean);
  } catch {
    const skip = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage']);
    const walk = (folder: string): string[] =>
      readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
        const path = folder ? `${folder}/${entry.name}` : entry.name;
        if (entry.isDirectory()) return skip.has(entry.name) ? [] : walk(path);
        return entry.isFile() ? [path] : [];
      });
    return walk('');
  }
}

const diskTree: DocsTree = {
  exists: (path) => existsSync(join(ROOT, path)),
  anchors: (path) => markdownAnchors(readFileSync(join(ROOT, path), 'utf8')),
};

describe('references in the repository', () => {
  const sections = decisionSections(readFileSync(join(ROOT, 'docs', 'decisions.md'), 'utf8'));

  it('docs/decisions.md keeps the numbered sections 1 to 15 that the code cites', () => {
    for (let number = 1; number <= 15; number += 1) expect({ number, present: sections.has(number) }).toEqual({ number, present: true });
  });

  it('point inside the repository: no outside folder, no missing decision, no missing docs file or link', () => {
    const files = repositoryFiles()
      .filter((path) => TEXT_FILE.test(path) && !NOT_OURS.some((pattern) => pattern.test(path)))
      .filter((path) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).size < 5_000_000)
      .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((file) => file.path === 'docs/interface.md')).toBe(true);
    expect(referenceProblems(files, sections, diskTree)).toEqual([]);
  });

  describe('the checks', () => {
    const tree: DocsTree = {
      exists: (path) => ['docs/decisions.md', 'docs/interface.md', 'README.md'].includes(path),
      anchors: (path) => (path === 'docs/interface.md' ? new Set(['section-a-and-section-b']) : new Set()),
    };
    const problems = (path: string, text: string) => referenceProblems([{ path, text }], new Set([1, 2, 7, 8, 14]), tree);

    it('refuse a reference to a folder outside the repository', () => {
      expect(problems('README.md', `See ${OUTSIDE[0]}/spec/interface.md`)).toEqual([`README.md:1: refers to ${OUTSIDE[0]}, which a clone does not have`]);
      expect(problems('src/a.ts', `// ${OUTSIDE[1]}/docs`)).toHaveLength(1);
    });

    it('refuse a citation of a section docs/decisions.md does not have, in every form', () => {
      expect(problems('src/a.ts', `/** docs/decisions.md ${SECTION}7/${SECTION}9 */`)).toEqual([`src/a.ts:1: docs/decisions.md has no ${SECTION}9`]);
      expect(problems('docs/a.md', `docs/decisions.md ${SECTION}14, ${SECTION}16 and ${SECTION}2`)).toEqual([`docs/a.md:1: docs/decisions.md has no ${SECTION}16`]);
      expect(problems('src/a.ts', `// docs/decisions.md ${SECTION}8, docs/decisions.md ${SECTION}1`)).toEqual([]);
    });

    it('refuse a citation that does not name docs/decisions.md', () => {
      expect(problems('src/a.ts', `// decisions ${SECTION}7`)).toEqual([`src/a.ts:1: "decisions ${SECTION}7" should cite docs/decisions.md`]);
      expect(problems('docs/a.md', `Decisions ${SECTION}3 and ${SECTION}11.`)).toEqual([
        `docs/a.md:1: "Decisions ${SECTION}3 and ${SECTION}11" should cite docs/decisions.md`,
        `docs/a.md:1: docs/decisions.md has no ${SECTION}3`,
        `docs/a.md:1: docs/decisions.md has no ${SECTION}11`,
      ]);
    });

    it('refuse a docs/ file that does not exist, but not a URL path that contains docs/', () => {
      expect(problems('src/a.ts', '// see docs/gone.md and docs/interface.md.')).toEqual(['src/a.ts:1: docs/gone.md does not exist']);
      expect(problems('src/a.ts', '// https://developer.example.com/docs/api/orders/v2/ and /docs/swagger-ui-init.js')).toEqual([]);
      expect(problems('docker/build-context.test.mjs', "folderWith(['docs/a.md'])")).toEqual([]);
    });

    it('refuse a relative Markdown link to a missing file, a missing heading or outside the repository', () => {
      expect(problems('docs/a.md', '[the interface](interface.md#section-a-and-section-b), [README](../README.md), [web](https://example.com/x)')).toEqual([]);
      expect(problems('docs/a.md', '[gone](gone.md)')).toEqual(['docs/a.md:1: the link gone.md does not exist']);
      expect(problems('docs/a.md', '[B](interface.md#section-b)')).toEqual(['docs/a.md:1: docs/interface.md has no heading #section-b']);
      expect(problems('README.md', '[up](../other/README.md)')).toEqual(['README.md:1: ../other/README.md leaves the repository']);
    });

    it('read headings as GitHub anchors them, outside code blocks', () => {
      expect(markdownAnchors('# Title\n## Section A and section B\n```\n# not a heading\n```\n### `GET /x` (admin)')).toEqual(
        new Set(['title', 'section-a-and-section-b', 'get-x-admin']),
      );
    });
  });
});
