package io.weir.testkit;

/**
 * How large a test's input is: the default build's size, or the full one under {@code mvn verify
 * -Pfull} (system property {@code weir.test.full=true}, set by the root pom's {@code full}
 * profile). A test that scales its input down by default must check the same outcome at both
 * sizes; only the number of records (or keys, rounds, instances) changes.
 *
 * <pre>{@code
 * private static final int RECORDS = TestSizes.pick(20_000, 200_000);
 * }</pre>
 */
public final class TestSizes {

    /** The system property the root pom's {@code full} profile sets. */
    public static final String FULL_PROPERTY = "weir.test.full";

    private TestSizes() {}

    /** True under {@code -Pfull}. */
    public static boolean full() {
        return Boolean.getBoolean(FULL_PROPERTY);
    }

    /** {@code standard} in the default build, {@code full} under {@code -Pfull}. */
    public static int pick(int standard, int full) {
        return full() ? full : standard;
    }

    /** {@code standard} in the default build, {@code full} under {@code -Pfull}. */
    public static long pick(long standard, long full) {
        return full() ? full : standard;
    }
}
