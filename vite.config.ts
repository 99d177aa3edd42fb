import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.resolve(import.meta.dirname, 'entries');
const SERVER = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:8080';

/** The dev server's history-mode fallback: a portal route such as /analysis/class gets teacher.html. */
function portalFallback(): Plugin {
  return {
    name: 'portal-history-fallback',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? '/';
        const pathname = url.split('?')[0] ?? '/';
        const isPage =
          req.method === 'GET' &&
          !pathname.startsWith('/api') &&
          !pathname.startsWith('/socket.io') &&
          !pathname.startsWith('/@') &&
          !pathname.startsWith('/node_modules') &&
          !path.extname(pathname);
        if (isPage) req.url = '/teacher.html' + url.slice(pathname.length);
        next();
      });
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const TEXT_ASSET = /\.(?:m?js|css|html|svg|json|txt|xml|map|bcmap|wasm)$/;

/**
 * Writes a Brotli (.br) and a gzip (.gz) copy next to every text asset of the build over 1 KB, for the
 * server to send as they are (@fastify/static preCompressed): the best compression, paid once per build.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // The bundle-size test builds only to measure.
      if (process.env.PRECOMPRESS === 'off') return;
      const files = (await fs.readdir(outDir, { recursive: true })).map((file) => path.join(outDir, file));
      await Promise.all(
        files
          .filter((file) => TEXT_ASSET.test(file))
          .map(async (file) => {
            const data = await fs.readFile(file);
            if (data.length < 1024) return;
            const [br, gz] = await Promise.all([
              brotli(data, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: data.length > 1_000_000 ? 9 : 11,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
                },
              }),
              gzip(data, { level: 9 }),
            ]);
            await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
          }),
      );
    },
  };
}

/**
 * The Semi Form field types the app uses (Form.Input, Form.Select, ...). Semi's Form attaches every field
 * type to itself, so importing Form bundles DatePicker, TreeSelect, Cascader, Upload, Slider and the rest
 * (about 130 KiB gz) into each page with a form. The fields left out here become a component that throws
 * a message naming this list; tests/lint/semi-form-fields.test.ts checks that the code uses no other.
 */
export const SEMI_FORM_FIELDS = ['Input', 'InputNumber', 'Select', 'Radio', 'RadioGroup'];

/**
 * Field types of the list that Semi's Form loads only when a form shows one, through a module of ours
 * (so that the build splits the component as it does when a page imports it): InputNumber, 6 KiB gz that
 * most forms (the login box's, 个人中心's) do not need. Until it is in, a disabled input holds its place.
 * (Select, 23 KiB with Tag, was tried too: its chunks split finer and every page with a Select paid about
 * 1.2 KiB more.)
 */
export const SEMI_LAZY_FORM_FIELDS: Record<string, string> = {
  InputNumber: path.resolve(import.meta.dirname, 'src/shared/ui/form-input-number-chunk.ts'),
};

/** Components Semi's form/field.js wraps, by field name, and the import path it uses for each. */
const SEMI_FIELD_SOURCES: Record<string, string> = {
  Input: '../input/index',
  TextArea: '../input/textarea',
  InputNumber: '../inputNumber/index',
  Select: '../select/index',
  Checkbox: '../checkbox/index',
  CheckboxGroup: '../checkbox/checkboxGroup',
  Radio: '../radio/index',
  RadioGroup: '../radio/radioGroup',
  DatePicker: '../datePicker/index',
  Switch: '../switch/index',
  Slider: '../slider/index',
  TimePicker: '../timePicker/index',
  TreeSelect: '../treeSelect/index',
  Cascader: '../cascader/index',
  Rating: '../rating/index',
  AutoComplete: '../autoComplete/index',
  Upload: '../upload/index',
  TagInput: '../tagInput/index',
};

function slimSemiForm(): Plugin {
  const left = Object.keys(SEMI_FIELD_SOURCES).filter((name) => !SEMI_FORM_FIELDS.includes(name));
  return {
    name: 'slim-semi-form',
    transform(code, id) {
      if (!/semi-ui-19[\\/]lib[\\/]es[\\/]form[\\/]field\.js$/.test(id)) return null;
      let out = code;
      for (const name of left) {
        const source = SEMI_FIELD_SOURCES[name]!;
        const importLine = new RegExp(`import (?:\\{ ${name} \\}|${name}) from '${source.replace(/[/.]/g, '\\$&')}';\\n`);
        const wrap = new RegExp(`withField\\(${name}(?:, \\{[^}]*\\})?\\)`);
        if (!importLine.test(out) || !wrap.test(out)) {
          this.error(`slim-semi-form: Semi's form/field.js changed (no ${name}); update SEMI_FIELD_SOURCES in vite.config.ts`);
        }
        out = out.replace(importLine, '').replace(wrap, `leftOut('${name}')`);
      }
      for (const [name, chunk] of Object.entries(SEMI_LAZY_FORM_FIELDS)) {
        const source = SEMI_FIELD_SOURCES[name]!;
        const importLine = `import ${name} from '${source}';\n`;
        if (!out.includes(importLine)) {
          this.error(`slim-semi-form: Semi's form/field.js changed (no ${importLine.trim()}); update SEMI_LAZY_FORM_FIELDS`);
        }
        out = out.replace(importLine, `const ${name} = lazyField(() => import(${JSON.stringify(chunk)}));\n`);
      }
      return (
        `import { createElement as lazyFieldElement, lazy as lazyFieldComponent, Suspense as LazyFieldSuspense } from 'react';\n` +
        out +
        `\nfunction lazyField(load) {\n  const Loaded = lazyFieldComponent(load);\n  return function LazyFormField(props) {\n    const fallback = lazyFieldElement(Input, { disabled: true, placeholder: typeof props.placeholder === 'string' ? props.placeholder : undefined, style: props.style, className: props.className, size: props.size });\n    return lazyFieldElement(LazyFieldSuspense, { fallback }, lazyFieldElement(Loaded, props));\n  };\n}\n` +
        `\nfunction leftOut(name) {\n  return function LeftOutFormField() {\n    throw new Error('Form.' + name + ' is not in the build: add it to SEMI_FORM_FIELDS in vite.config.ts');\n  };\n}\n`
      );
    },
  };
}

/**
 * Parts of Semi components that the app never shows, left out of the build because the component imports
 * them statically: Table's resizable columns (react-resizable and react-draggable, about 6.6 KiB gz on
 * every page with a table), Tag's avatar (Avatar, 2.6 KiB on every page with a Select) and Select's
 * collapsed tags (OverflowList, 5 KiB on pages with a Select and no Tabs). Each becomes a component that
 * throws a message naming the prop; tests/lint/semi-slim.test.ts checks that the code uses none of them.
 */
export const SEMI_LEFT_OUT = [
  {
    file: /semi-ui-19[\\/]lib[\\/]es[\\/]table[\\/]ResizableHeaderCell\.js$/,
    line: "import { Resizable } from 'react-resizable';\n",
    name: 'Resizable',
    prop: 'resizable',
  },
  {
    file: /semi-ui-19[\\/]lib[\\/]es[\\/]tag[\\/]index\.js$/,
    line: "import Avatar from '../avatar/index';\n",
    name: 'Avatar',
    prop: 'avatarSrc',
  },
  {
    file: /semi-ui-19[\\/]lib[\\/]es[\\/]select[\\/]index\.js$/,
    line: "import OverflowList from '../overflowList/index';\n",
    name: 'OverflowList',
    prop: 'ellipsisTrigger',
  },
] as const;

/**
 * Semi's Chinese locale without date-fns' Chinese locale (2.7 KiB gz on every page): only the date pickers
 * read it, and src/shared/ui/date-picker-chunk.tsx gives them a locale that has it.
 */
const SEMI_ZH_CN = /semi-ui-19[\\/]lib[\\/]es[\\/]locale[\\/]source[\\/]zh_CN\.js$/;
const DATE_FNS_ZH_CN = "import { zhCN } from 'date-fns/locale';\n";

function slimSemi(): Plugin {
  return {
    name: 'slim-semi',
    transform(code, id) {
      if (SEMI_ZH_CN.test(id)) {
        if (!code.includes(DATE_FNS_ZH_CN) || !code.includes('dateFnsLocale: zhCN,')) {
          this.error(`slim-semi: ${id} changed; update SEMI_ZH_CN in vite.config.ts`);
        }
        return code.replace(DATE_FNS_ZH_CN, '').replace('dateFnsLocale: zhCN,', 'dateFnsLocale: undefined,');
      }
      const part = SEMI_LEFT_OUT.find((entry) => entry.file.test(id));
      if (!part) return null;
      if (!code.includes(part.line))
        this.error(`slim-semi: ${id} changed (no ${part.line.trim()}); update SEMI_LEFT_OUT in vite.config.ts`);
      return (
        code.replace(part.line, '') +
        `\nfunction ${part.name}() {\n  throw new Error('Semi\\'s ${part.prop} is not in the build: see SEMI_LEFT_OUT in vite.config.ts');\n}\n`
      );
    },
  };
}

export default defineConfig({
  root,
  publicDir: path.resolve(import.meta.dirname, 'public'),
  plugins: [slimSemiForm(), slimSemi(), react(), portalFallback(), precompress()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2500,
    rolldownOptions: {
      // Semi UI's dependencies carry 'use client' directives, meaningless in a client bundle.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        // lottie-web (inside Semi UI) uses eval; nothing of ours does.
        if (log.code === 'EVAL' && log.id?.includes('node_modules')) return;
        handler(level, log);
      },
      output: {
        // Vendor chunks that change rarely and are shared by every screen, so a deploy of our code leaves
        // them cached. Semi UI is left to automatic splitting: each page loads the components it uses.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'router', test: /node_modules[\\/](react-router|react-router-dom)[\\/]/, priority: 20 },
            // Named so that the budgets (tests/lint/bundle-budget.test.ts) and the bench can name them.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 10 },
            { name: 'xstate', test: /node_modules[\\/](xstate|@xstate[\\/]react)[\\/]/, priority: 10 },
            {
              name: 'socket-io',
              test: /node_modules[\\/](socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io)[\\/]/,
              priority: 10,
            },
          ],
        },
      },
      input: {
        teacher: path.join(root, 'teacher.html'),
        scanstation: path.join(root, 'scanstation.html'),
        largescreen: path.join(root, 'largescreen.html'),
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: SERVER, changeOrigin: true },
      '/socket.io': { target: SERVER, ws: true, changeOrigin: true },
    },
  },
});
