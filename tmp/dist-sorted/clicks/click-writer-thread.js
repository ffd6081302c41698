import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from '../db/connect.js';
import { sqliteClickWriter } from './batch-writers.js';
import { clickAggregator } from './derive.js';
import { loadGeoDatabase } from '../lib/geo.js';
const data = workerData;
const sqlite = openSqlite(data.path);
try {
    loadGeoDatabase(data.geoipMmdb || undefined);
}
catch {
    // countryOf answers null without a database; the main thread logs the load failure.
}
const aggregate = clickAggregator(data.secret, { visitLog: data.visitLog });
const write = sqliteClickWriter(sqlite);
parentPort.on('message', ({ id, batch }) => {
    try {
        write(aggregate(batch));
        parentPort.postMessage({ id });
    }
    catch (error) {
        parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
});
//# sourceMappingURL=click-writer-thread.js.map