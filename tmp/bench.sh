#!/bin/bash
for links in 1000 1000000; do
  for r in 1 2 3; do
    WARM=100 node tmp/writer.mjs /work/main/dist $links
    WARM=100 node tmp/writer.mjs /work/wt-visits/tmp/dist-visits $links
  done
done
