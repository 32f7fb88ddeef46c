// Module boundaries of src/, as zones of import-x/no-restricted-paths.
//
// The zones are generated from the folders that exist when ESLint starts, so a new module folder
// (src/modules/<name>/, src/common/<name>/) is covered without editing this file.
//
// Areas: each folder src/modules/<name>/, each folder src/common/<name>/, src/config/, src/database/.
// 1. Another area is imported only through its index.ts; inside one area (subfolders included)
//    imports are free.
// 2. A gateway slice (src/modules/gateway-*/) is imported by src/app.module.ts only.
// 3. Direction: common and config import no module; the gateway-neutral core (gateways) imports
//    neither payments, webhooks nor a slice; payments imports neither webhooks nor a slice;
//    webhooks imports no slice; the outbox imports no other module (it names no feature: the
//    owners of the work import it).
//
// Paths are relative to the repository root (the rule's basePath).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const GATEWAY_SLICE = /^gateway-/;

function subfolders(root, parent) {
  try {
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`)
      .sort();
  } catch {
    return [];
  }
}

/** Every area folder of src/, e.g. `src/modules/payments`, `src/common/errors`, `src/config`. */
export function findAreas(root) {
  return [...subfolders(root, 'src/modules'), ...subfolders(root, 'src/common'), 'src/config', 'src/database'];
}

/**
 * Every file of src/ outside `area`: the other areas plus the files that belong to no area
 * (src/*.ts, and any loose file directly in src/modules or src/common).
 * `topLevel` narrows which files directly in src/ are included (a glob on their name).
 */
function outside(area, areas, topLevel = '*.ts') {
  return [...areas.filter((other) => other !== area), `src/${topLevel}`, 'src/modules/*.ts', 'src/common/*.ts'];
}

/** @returns {import('eslint-plugin-import-x').RuleOptions['no-restricted-paths'][0]['zones']} */
export function moduleBoundaryZones(root) {
  const areas = findAreas(root);
  const slices = areas.filter((area) => area.startsWith('src/modules/') && GATEWAY_SLICE.test(area.slice('src/modules/'.length)));
  const module = (name) => `src/modules/${name}/**`;
  const anySlice = 'src/modules/gateway-*/**';

  const throughIndex = areas.map((area) => ({
    target: outside(area, areas),
    from: area,
    except: ['./index.ts'],
    message: `Import ${area}/ through its index.ts (module boundary).`,
  }));

  const slicesFromAppModuleOnly = slices.map((slice) => ({
    target: outside(slice, areas, '!(app.module).ts'),
    from: slice,
    message: `Only src/app.module.ts imports a gateway slice (${slice}/).`,
  }));

  const direction = [
    {
      target: ['src/common', 'src/config'],
      from: 'src/modules',
      message: 'src/common and src/config import no module of src/modules (import direction).',
    },
    {
      target: 'src/modules/gateways',
      from: [module('payments'), module('webhooks'), anySlice],
      message: 'The gateway-neutral core (gateways) imports neither payments, webhooks nor a gateway slice (import direction).',
    },
    {
      target: 'src/modules/payments',
      from: [module('webhooks'), anySlice],
      message: 'payments imports neither webhooks nor a gateway slice (import direction).',
    },
    {
      target: 'src/modules/webhooks',
      from: anySlice,
      message: 'webhooks imports no gateway slice (import direction).',
    },
    ...(areas.includes('src/modules/outbox')
      ? [
          {
            target: 'src/modules/outbox',
            from: areas.filter((area) => area.startsWith('src/modules/') && area !== 'src/modules/outbox').map((area) => `${area}/**`),
            message: 'The outbox imports no other module: the owners of the work import it (import direction).',
          },
        ]
      : []),
  ];

  return [...throughIndex, ...slicesFromAppModuleOnly, ...direction];
}
