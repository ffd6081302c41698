import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'wouter';
import { ErrorNote, Field, Loading, PageTitle } from '../../lib/ui.js';
import { linkKeys } from '../links/api.js';
import { knownExport, recogniseColumns } from '../../../../src/features/links/transfer/column-names.js';
import { EXPORT_URL, getImport, importKeys, startImport } from './api.js';
import { ColumnMapper, mappingReady, type Choice } from './ColumnMapper.js';
import { readHeader } from './header.js';
import { ImportReport } from './ImportReport.js';

/** Export every link as CSV, and import a CSV file as a background job followed until it ends. */
export default function TransferPage() {
  return (
    <>
      <PageTitle title="Import and export" />
      <section className="panel" aria-labelledby="export-h">
        <h2 id="export-h">Export</h2>
        <p>
          Every link of your account as a CSV file, oldest first, with its targets, parameters, pixels, campaign and all-time clicks. Passwords never
          leave the server: a protected link’s <code>password</code> column is empty. The file imports back below.
        </p>
        <a className="button" href={EXPORT_URL} download="links.csv">
          Download links.csv
        </a>
      </section>
      <ImportSection />
    </>
  );
}

const EXPORTS: Record<string, string> = { redirectory: 'a Redirectory', shlink: 'a Shlink', bitly: 'a Bitly', yourls: 'a YOURLS', kutt: 'a Kutt' };

function ImportSection() {
  const client = useQueryClient();
  // The job is in the address, so a reload keeps following it.
  const [params, setParams] = useSearchParams();
  const jobId = Number(params.get('job')) || 0;
  const [file, setFile] = useState<File | null>(null);
  const [header, setHeader] = useState<string[] | null>(null);
  const [mapping, setMapping] = useState<Choice[]>([]);
  // A known export is read as that format (every column it has); any other file is read by the mapping.
  const [mapOwn, setMapOwn] = useState(false);
  const known = header ? knownExport(header) : undefined;
  const start = useMutation({
    mutationFn: startImport,
    onSuccess: (job) => {
      client.setQueryData(importKeys.job(job.id), job);
      setParams({ job: String(job.id) });
    },
  });
  const job = useQuery({
    queryKey: importKeys.job(jobId),
    queryFn: () => getImport(jobId),
    enabled: jobId > 0,
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 1000 : false),
  });
  const ended = job.data && job.data.status !== 'running';
  useEffect(() => {
    if (ended) void client.invalidateQueries({ queryKey: linkKeys.all });
  }, [ended, client]);
  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setHeader(null);
    if (!chosen) return;
    const names = await readHeader(chosen);
    setHeader(names);
    setMapping(recogniseColumns(names));
    setMapOwn(!knownExport(names));
  };
  const ready = file && header && (!mapOwn || mappingReady(mapping));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) start.mutate({ file, columns: mapOwn ? mapping.join(',') : undefined });
  };
  return (
    <>
      <form className="panel" onSubmit={submit} aria-labelledby="import-h">
        <h2 id="import-h">Import</h2>
        <p>
          A CSV file of links, at most 20 MB unless the administrator set another limit: this export, or an export of Shlink, Bitly, YOURLS or Kutt
          (told apart by the header row), or any CSV with a column of destination URLs, whose columns you map below. Each row is checked as a new link
          is and fails alone, with its reason. One import runs at a time.
        </p>
        <Field id="import-file" label="CSV file">
          <input id="import-file" type="file" accept=".csv,text/csv" required onChange={(e) => void choose(e.target.files?.[0] ?? null)} />
        </Field>
        {known && !mapOwn && (
          <p>
            Read as {EXPORTS[known] ?? known} export: every column it has is imported.{' '}
            <button type="button" className="small secondary" onClick={() => setMapOwn(true)}>
              Map the columns myself
            </button>
          </p>
        )}
        {header && mapOwn && <ColumnMapper header={header} value={mapping} onChange={setMapping} />}
        <ErrorNote error={start.error} />
        <button type="submit" disabled={!ready || start.isPending}>
          Import
        </button>
      </form>
      <ErrorNote error={job.error} />
      {jobId > 0 && job.isPending && <Loading />}
      {job.data && <ImportReport job={job.data} />}
    </>
  );
}
