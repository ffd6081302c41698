#!/bin/bash
for links in 1000000 1000; do
  for r in 1 2; do
    WARM=100 node tmp/writer.mjs /work/wt-visits/tmp/dist-visits $links | sed 's/^new /unsorted/'
    WARM=100 node tmp/writer.mjs /work/wt-visits/tmp/dist-sorted $links | sed 's/^new /sorted/'
    WARM=100 node tmp/writer.mjs /work/main/dist $links
  done
done
