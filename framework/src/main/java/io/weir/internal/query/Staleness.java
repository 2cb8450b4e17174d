package io.weir.internal.query;

import java.util.Map;

/**
 * How far behind the caller accepts an answer: {@code maxLag} (changelog records a standby copy
 * has not applied) and {@code maxStalenessMs} (how long since it last had applied everything).
 * Neither given: only the active copy answers. Both given: a copy must be within both.
 */
record Staleness(long maxLag, long maxStalenessMs) {

    static final long UNBOUNDED = Long.MAX_VALUE;
    static final Staleness ACTIVE_ONLY = new Staleness(-1, -1);

    static Staleness of(Map<String, String> params) {
        long lag = parse(params, "maxLag");
        long ms = parse(params, "maxStalenessMs");
        if (lag < 0 && ms < 0) {
            return ACTIVE_ONLY;
        }
        return new Staleness(lag < 0 ? UNBOUNDED : lag, ms < 0 ? UNBOUNDED : ms);
    }

    boolean allowsStandby() {
        return maxLag >= 0;
    }

    boolean admits(long lagRecords, long lagMillis) {
        return allowsStandby() && lagRecords >= 0 && lagRecords <= maxLag && lagMillis <= maxStalenessMs;
    }

    @Override
    public String toString() {
        return (maxLag == UNBOUNDED ? "" : "maxLag=" + maxLag)
                + (maxLag != UNBOUNDED && maxStalenessMs != UNBOUNDED ? " and " : "")
                + (maxStalenessMs == UNBOUNDED ? "" : "maxStalenessMs=" + maxStalenessMs);
    }

    private static long parse(Map<String, String> params, String name) {
        String v = params.get(name);
        if (v == null || v.isEmpty()) {
            return -1;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException(name + " must be a number of "
                + (name.equals("maxLag") ? "records" : "milliseconds") + ", 0 or more, not '" + v + "'");
    }
}
