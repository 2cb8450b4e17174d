/**
 * The application's internal topics: their set-up and check at start (repartition topics,
 * changelogs, source tables read as changelogs), their end offsets, and the purge of repartition
 * topics. May use the topology, the assignor's co-partitioning and the configuration below it.
 */
package io.weir.internal.cluster.topics;
