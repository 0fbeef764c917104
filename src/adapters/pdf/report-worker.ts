/** Worker-thread entry of WorkerReportRenderer: renders one report and posts it back. */
import { parentPort, workerData } from 'node:worker_threads';
import type { ReportInput } from '../../ports/report-renderer';
import { PdfLibReportRenderer } from './report-renderer';

void (async () => {
  try {
    const pdf = await new PdfLibReportRenderer().render((workerData as { input: ReportInput }).input);
    parentPort?.postMessage({ pdf }, [pdf.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? error.name : 'Error' });
  }
})();
