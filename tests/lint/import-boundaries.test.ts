/**
 * The import boundaries of ../shared/STYLE.md are enforced by `npm run lint`. These tests lint small
 * snippets as if they stood at real paths, so a rule that silently stops working fails here.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
// no-cycle needs files on disk to follow; these snippets exist only in memory, and cycles are not their point.
const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { 'import/no-cycle': 'off' } } });

async function lintAt(relativePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, relativePath) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('import boundaries', () => {
  it('refuses React in a machine', async () => {
    const messages = await lintAt(
      'src/machines/example.machine.ts',
      "import { useState } from 'react';\nexport const x = useState;\n",
    );
    expect(messages.join('\n')).toMatch(/no-restricted-imports/);
  });

  it('refuses axios in a feature (only adapters touch IO)', async () => {
    const messages = await lintAt('src/features/portal/example.ts', "import axios from 'axios';\nexport const x = axios;\n");
    expect(messages.join('\n')).toMatch(/no-restricted-imports/);
  });

  it('refuses a feature importing another feature', async () => {
    const messages = await lintAt(
      'src/features/large-screen/example.ts',
      "import { PortalLayout as HomePage } from '../portal/portal-layout';\nexport const x = HomePage;\n",
    );
    expect(messages.join('\n')).toMatch(/must not import another feature/);
  });

  it('refuses a machine importing a feature', async () => {
    const messages = await lintAt(
      'src/machines/example.machine.ts',
      "import { PortalLayout as HomePage } from '../features/portal/portal-layout';\nexport const x = HomePage;\n",
    );
    expect(messages.join('\n')).toMatch(/Machines must not import features/);
  });

  it('refuses the server importing client code other than the contract', async () => {
    const messages = await lintAt(
      'server/lib/example.ts',
      "import { PortalLayout as HomePage } from '../../src/features/portal/portal-layout';\nexport const x = HomePage;\n",
    );
    expect(messages.join('\n')).toMatch(/only src\/shared\/contract/);
  });

  it('allows the server to import the contract and a feature to import shared code', async () => {
    expect(
      await lintAt(
        'server/lib/example.ts',
        "import { MESSAGES } from '../../src/shared/contract/envelope';\nexport const x = MESSAGES;\n",
      ),
    ).toEqual([]);
    expect(
      await lintAt(
        'src/features/portal/example.ts',
        "import { AppProviders } from '../../shared/ui/app-providers';\nexport const x = AppProviders;\n",
      ),
    ).toEqual([]);
  });
});
