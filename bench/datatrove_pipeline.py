#!/usr/bin/env python3
"""datatrove's whole pipeline on one WARC, with its default settings, on one core:
WarcReader -> Trafilatura -> JsonlWriter -> MinhashDedupSignature, then
MinhashDedupBuckets, MinhashDedupCluster (cluster ids kept) and MinhashDedupFilter over
the extracted documents, as datatrove's MinHash example chains them (one task, one
worker per stage). Writes OUT/clusters.tsv (`url<TAB>cluster`, cluster empty for a page
in no cluster) for bench/score_pipeline.py and prints pages, seconds, CPU seconds.

    VENV/bin/python bench/datatrove_pipeline.py /tmp/dup.warc.gz OUT [TIMEOUT_S]
"""

import json
import gzip
import os
import sys
import time

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.dedup.minhash import (
    MinhashConfig,
    MinhashDedupBuckets,
    MinhashDedupCluster,
    MinhashDedupFilter,
    MinhashDedupSignature,
)
from datatrove.pipeline.extractors import Trafilatura
from datatrove.pipeline.readers import JsonlReader, WarcReader
from datatrove.pipeline.writers import JsonlWriter


def run(stage, out, name, tasks=1):
    LocalPipelineExecutor(pipeline=stage, tasks=tasks, workers=1,
                          logging_dir=os.path.join(out, "logs", name)).run()


def main(warc, out, timeout):
    config = MinhashConfig()
    folder, name = os.path.split(os.path.abspath(warc))
    start, cpu = time.monotonic(), time.process_time()
    run([WarcReader(folder, glob_pattern=name),
         Trafilatura(timeout=timeout),
         JsonlWriter(os.path.join(out, "extracted")),
         MinhashDedupSignature(os.path.join(out, "signatures"), config=config)], out, "1-signatures")
    run([MinhashDedupBuckets(os.path.join(out, "signatures"), os.path.join(out, "buckets"),
                             config=config)], out, "2-buckets", tasks=config.num_buckets)
    run([MinhashDedupCluster(os.path.join(out, "buckets"), os.path.join(out, "remove"),
                             config=config, save_cluster_id=True)], out, "3-clusters")
    run([JsonlReader(os.path.join(out, "extracted")),
         MinhashDedupFilter(os.path.join(out, "remove"), load_cluster_ids=True,
                            exclusion_writer=JsonlWriter(os.path.join(out, "removed"))),
         JsonlWriter(os.path.join(out, "kept"))], out, "4-filter")
    seconds, cpu = time.monotonic() - start, time.process_time() - cpu
    pages = 0
    with open(os.path.join(out, "clusters.tsv"), "w") as tsv:
        for part in ("kept", "removed"):
            d = os.path.join(out, part)
            for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                for line in gzip.open(os.path.join(d, f), "rt"):
                    doc = json.loads(line)
                    meta = doc["metadata"]
                    c = meta.get("minhash_cluster_id", -1)
                    tsv.write(f"{meta['url']}\t{'' if c == -1 else c}\n")
                    pages += 1
    print(json.dumps({"pages_out": pages, "seconds": round(seconds, 1),
                      "cpu_seconds_main": round(cpu, 1)}))


if __name__ == "__main__":
    # The extractor's per-page timeout is wall-clock time (default 1 s): on a loaded
    # machine pages time out and are dropped, so the third argument can raise it.
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 1.0)
