#!/bin/sh
# Creates the topics the samples read and write (TOPICS, space-separated) with PARTITIONS
# partitions on BOOTSTRAP_SERVERS, in the apache/kafka image. Safe to run again: existing topics are
# left as they are. Weir creates its own internal topics (repartition, changelog) itself.
set -eu
for topic in $TOPICS; do
  /opt/kafka/bin/kafka-topics.sh --bootstrap-server "$BOOTSTRAP_SERVERS" --create --if-not-exists \
    --topic "$topic" --partitions "$PARTITIONS" --replication-factor 1
done
/opt/kafka/bin/kafka-topics.sh --bootstrap-server "$BOOTSTRAP_SERVERS" --describe --topic "$(echo "$TOPICS" | tr ' ' '|')"
