package io.weir.internal.operator.window;

import java.util.TreeSet;

/**
 * Where in event time windows may still be waiting to fire, so that an advance of the watermark
 * that can fire nothing skips the store: a sorted set of buckets of {@code granularity}
 * milliseconds, each holding the fire time of some window written since it was last checked
 * (bucket {@code b} covers fire times {@code [b, b + granularity)}; granularity 1 keeps exact
 * times, which suits time windows, whose ends are aligned; sessions, whose ends are arbitrary,
 * use coarser buckets to bound the memory).
 *
 * <p>What the set does not list: windows already in the store when the processor started (after a
 * restore), and windows whose firing an aborted transaction took back. For those it keeps an
 * "unlisted" bound: fire times up to it may be in the store without being listed, so the store is
 * scanned until the watermark has passed it. At start-up the bound is unlimited: the first scan
 * reads every pending window once and lists the fire times of those it does not fire.
 *
 * <p>A superset is harmless (a scan that finds nothing); the set may thus keep the fire times of
 * windows written in an aborted transaction or merged away. Owned by the task's thread.
 */
final class FireTimes {

    private final long granularity;
    private final TreeSet<Long> buckets = new TreeSet<>();
    /** The last bucket added, to skip the set when consecutive records share a bucket. */
    private long lastAdded = Long.MIN_VALUE;
    /** Fire times up to this one may be pending in the store without being listed. */
    private long unlistedThrough = Long.MAX_VALUE;

    FireTimes(long granularity) {
        if (granularity < 1) {
            throw new IllegalArgumentException("granularity must be at least 1 ms, was " + granularity);
        }
        this.granularity = granularity;
    }

    /** Forgets everything listed: the store may hold anything (a processor starting on restored state). */
    void unlistAll() {
        buckets.clear();
        lastAdded = Long.MIN_VALUE;
        unlistedThrough = Long.MAX_VALUE;
    }

    /** Fire times up to {@code fireTime} may be pending without being listed (after an aborted firing). */
    void unlistThrough(long fireTime) {
        unlistedThrough = Math.max(unlistedThrough, fireTime);
    }

    /** A window that fires at {@code fireTime} was written. */
    void add(long fireTime) {
        long bucket = Math.floorDiv(fireTime, granularity) * granularity;
        if (bucket != lastAdded) {
            buckets.add(bucket);
            lastAdded = bucket;
        }
    }

    /** True if a window may have a fire time in {@code (firedThrough, through]}. */
    boolean mayFire(long firedThrough, long through) {
        return unlistedThrough > firedThrough || !buckets.isEmpty() && buckets.first() <= through;
    }

    /**
     * How far the next scan must read: {@code watermark}, or {@link Long#MAX_VALUE} while nothing is
     * listed (the scan then lists what it does not fire, with {@link #add}).
     */
    long scanThrough(long watermark) {
        return unlistedThrough == Long.MAX_VALUE ? Long.MAX_VALUE : watermark;
    }

    /** Every window with a fire time up to {@code watermark} fired; a scan read through {@code scannedThrough}. */
    void fired(long watermark, long scannedThrough) {
        if (unlistedThrough <= scannedThrough) {
            unlistedThrough = Long.MIN_VALUE;
        }
        // a bucket goes once all of it is at or below the watermark
        long lastWhole = watermark - (granularity - 1);
        if (lastWhole <= watermark && !buckets.isEmpty() && buckets.first() <= lastWhole) {
            buckets.headSet(lastWhole, true).clear();
            lastAdded = Long.MIN_VALUE;
        }
    }

    /** For tests: the number of buckets listed. */
    int size() {
        return buckets.size();
    }
}
