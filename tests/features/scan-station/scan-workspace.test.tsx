import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CHOOSE_SCANNER_HINT, ScanWorkspace } from '../../../src/features/scan-station/scan-workspace';
import {
  ScanStationServicesProvider,
  type ScannerPort,
  type ScanStationServices,
} from '../../../src/features/scan-station/scan-station-services';
import { ApiRequestError, type HttpClient } from '../../../src/shared/adapters/http-client';
import type { Homework } from '../../../src/shared/contract/papers';
import type { UploadItem, UploadQueue } from '../../../src/shared/adapters/upload-queue';
import type { ScannedPage } from '../../../src/shared/contract/scan';

const EMPTY_STATS = { queued: 0, uploading: 0, uploaded: 0, failed: 0, bytesTotal: 0, bytesSent: 0, lastError: null };

function page(sequence: number): ScannedPage {
  return {
    imageId: `00000000-0000-4000-8000-00000000000${sequence}`,
    fileName: `page-${sequence}.jpg`,
    blob: new Blob(['jpeg'], { type: 'image/jpeg' }),
    scanSubject: false,
    width: 100,
    height: 140,
    sequence,
  };
}

const MATH_UNIT: Homework = {
  id: 7,
  paperId: 3,
  title: '数学 第一单元',
  subject: { id: 2, name: '数学' },
  schoolYearId: 1,
  classes: [{ id: 11, name: '初一(1)班' }],
  startDate: '2026-03-02',
  dueDate: '2026-03-09',
  status: 'assigned',
  paperSize: 'A4',
  totalScore: 100,
  questionCount: 10,
  createdAt: '2026-03-01T08:00:00.000Z',
};

/** A workspace over fakes: a queue whose storage can refuse, and a scanner the test feeds by hand. */
function setup({
  get = async () => [],
  postJson = async () => ({ id: 41 }),
  initialHomeworkId = null,
  port = {},
}: {
  get?: (url: string) => Promise<unknown>;
  postJson?: (url: string, body: { homeworkId: number | null }) => Promise<unknown>;
  initialHomeworkId?: number | null;
  /** What the scanner says beyond a chosen, real and ready one. */
  port?: Partial<Pick<ScannerPort, 'simulated' | 'scannerChosen'>>;
} = {}) {
  let storageFull = true;
  const stored: UploadItem[] = [];
  const enqueue = vi.fn(async (item: UploadItem) => {
    if (storageFull) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    stored.push(item);
  });
  const queue = {
    enqueue,
    start: () => undefined,
    stop: () => undefined,
    subscribe: () => () => undefined,
    retryFailed: () => undefined,
    clearUploaded: async () => undefined,
    getPages: () => [],
    getBlob: async () => null,
    getStats: () => EMPTY_STATS,
  } satisfies UploadQueue;
  const http = {
    get: vi.fn(get),
    postJson: vi.fn(postJson),
  } as unknown as HttpClient;
  // The homework the workspace last handed the scanner, and that homework at each scan.
  const scanner = {
    homeworkId: null as number | null,
    scannedFor: [] as (number | null)[],
    scan: vi.fn(() => void scanner.scannedFor.push(scanner.homeworkId)),
    stop: vi.fn(),
    onPage: null as ((page: ScannedPage) => void) | null,
  };
  const services: ScanStationServices = {
    http,
    queue,
    socket: null,
    storage: { loadBatch: () => null, saveBatch: () => undefined },
    stationName: '扫描站',
    useScanner: (onPage, homeworkId): ScannerPort => {
      scanner.onPage = onPage;
      scanner.homeworkId = homeworkId;
      return {
        status: 'ready',
        problem: null,
        simulated: false,
        scannerChosen: true,
        serviceMissing: false,
        ...port,
        scan: scanner.scan,
        stop: scanner.stop,
        renderSettings: () => null,
      };
    },
  };
  render(
    <ScanStationServicesProvider services={services}>
      <ScanWorkspace initialHomeworkId={initialHomeworkId} />
    </ScanStationServicesProvider>,
  );
  return { http, enqueue, stored, scanner, allowStorage: () => (storageFull = false) };
}

describe('ScanWorkspace when the browser cannot store a scanned page', () => {
  it('tells the operator at once, stops scanning, and keeps every page until 重新保存 stores them in order', async () => {
    const user = userEvent.setup();
    const { enqueue, stored, scanner, allowStorage } = setup();
    await user.click(screen.getByRole('button', { name: /开始扫描/ }));
    await waitFor(() => expect(scanner.scan).toHaveBeenCalledTimes(1));

    // The feeder delivers two pages; the first cannot be stored.
    act(() => {
      scanner.onPage!(page(1));
      scanner.onPage!(page(2));
    });
    expect(await screen.findByText('这台电脑无法保存扫描的页面，扫描已停止')).toBeInTheDocument();
    expect(screen.getByText(/还有 2 页尚未保存/)).toBeInTheDocument();
    expect(scanner.stop).toHaveBeenCalled();
    // The page after the refused one waits with it rather than jumping ahead.
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: /开始扫描/ })).toBeDisabled();

    allowStorage();
    await user.click(screen.getByRole('button', { name: '重新保存' }));
    await waitFor(() => expect(screen.queryByText('这台电脑无法保存扫描的页面，扫描已停止')).not.toBeInTheDocument());
    expect(stored.map((item) => [item.batchId, item.sequence, item.imageId])).toEqual([
      [41, 1, page(1).imageId],
      [41, 2, page(2).imageId],
    ]);
    expect(screen.getByRole('button', { name: /开始扫描/ })).toBeEnabled();
  });
});

describe('ScanWorkspace homework list and refusals', () => {
  it('offers the homework the server says the teacher may scan', async () => {
    const get = vi.fn(async (url: string) => (url === '/api/homework/scannable' ? [MATH_UNIT] : []));
    setup({ get, initialHomeworkId: MATH_UNIT.id });
    expect(await screen.findByText('数学 第一单元（数学）')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/api/homework/scannable', undefined, expect.anything());
  });

  it('keeps a refused batch on the page in Chinese until a batch starts', async () => {
    const user = userEvent.setup();
    const refuse = vi.fn(async () => {
      throw new ApiRequestError('很抱歉，您暂无该操作权限', 403, 403);
    });
    const { scanner } = setup({ get: async () => [MATH_UNIT], postJson: refuse, initialHomeworkId: MATH_UNIT.id });
    await screen.findByText('数学 第一单元（数学）');
    await user.click(screen.getByRole('button', { name: /开始扫描/ }));
    expect(await screen.findByText('很抱歉，您暂无该操作权限')).toBeInTheDocument();
    expect(screen.getByText(/您不能扫描这份作业的答题卡/)).toBeInTheDocument();
    expect(scanner.scan).not.toHaveBeenCalled();
    // Still there a while later (a toast would have gone).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByText('很抱歉，您暂无该操作权限')).toBeInTheDocument();

    // The next attempt succeeds: the message goes and the scan starts.
    refuse.mockImplementationOnce(async () => ({ id: 42 }) as never);
    await user.click(screen.getByRole('button', { name: /开始扫描/ }));
    await waitFor(() => expect(scanner.scan).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('很抱歉，您暂无该操作权限')).not.toBeInTheDocument();
  });

  it('scans for the homework just chosen, also when the scan starts at once (the dropdown still closing)', async () => {
    const user = userEvent.setup();
    const other: Homework = { ...MATH_UNIT, id: 8, title: '有理数单元练习' };
    const postJson = vi.fn(async (_url: string, body: { homeworkId: number | null }) => ({ id: 100 + (body.homeworkId ?? 0) }));
    const { scanner } = setup({ get: async () => [MATH_UNIT, other], postJson, initialHomeworkId: MATH_UNIT.id });
    await screen.findByText('数学 第一单元（数学）');
    await user.click(screen.getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: /有理数单元练习（数学）/ }));
    await user.click(screen.getByRole('button', { name: /开始扫描/ }));
    await waitFor(() => expect(scanner.scan).toHaveBeenCalledTimes(1));
    expect(postJson).toHaveBeenCalledWith(
      '/api/scan/batches',
      { homeworkId: other.id, stationName: '扫描站' },
      expect.anything(),
    );
    expect(scanner.scannedFor).toEqual([other.id]);
  });
});

describe('ScanWorkspace before a scanner is chosen', () => {
  it('asks for one in 扫描设置 (naming the simulated scanner), and never claims the simulated one is in use', () => {
    setup({ port: { simulated: false, scannerChosen: false } });
    expect(screen.getByText(CHOOSE_SCANNER_HINT)).toBeInTheDocument();
    expect(screen.queryByText(/当前使用模拟扫描仪/)).toBeNull();
  });

  it('says the simulated scanner is in use once it is the one chosen', () => {
    setup({ port: { simulated: true, scannerChosen: true } });
    expect(screen.getByText(/当前使用模拟扫描仪/)).toBeInTheDocument();
    expect(screen.queryByText(CHOOSE_SCANNER_HINT)).toBeNull();
  });
});
