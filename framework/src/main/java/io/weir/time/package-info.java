/**
 * Which time a record has: record, event (from the value), ingestion or processing time.
 * Interfaces and values only; never an internal room.
 */
package io.weir.time;
