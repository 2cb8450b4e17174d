package io.weir.samples.common;

import io.weir.errors.WeirException;
import picocli.CommandLine;

/** Runs a sample's picocli command and turns its result into the process exit code. */
public final class SampleMain {

    private SampleMain() {}

    /**
     * Executes {@code command} with {@code args}: 0 when the sample's check passed, 1 when it
     * failed, 2 for a usage error or an expected failure (cluster unreachable, bad setting), which
     * is printed in one line; anything else propagates with its stack trace.
     */
    public static int execute(Object command, String... args) {
        return new CommandLine(command)
                .setExecutionExceptionHandler(SampleMain::reportFailure)
                .execute(args);
    }

    /** {@link #execute} then {@code System.exit}, which also ends threads a failed start may leave behind. */
    public static void exit(Object command, String... args) {
        System.exit(execute(command, args));
    }

    /**
     * {@code args}, or when there are none, the words of {@code fallback} (the variable
     * {@code SAMPLE} of the image, e.g. {@code serve word-count}) split at white space; no
     * arguments at all when both are empty.
     */
    public static String[] argsOrEnvironment(String[] args, String fallback) {
        if (args.length > 0 || fallback == null || fallback.isBlank()) {
            return args;
        }
        return fallback.trim().split("\\s+");
    }

    private static int reportFailure(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) throws Exception {
        if (e instanceof IllegalStateException || e instanceof WeirException) {
            cmd.getErr().println(cmd.getCommandName() + ": " + e.getMessage());
            return 2;
        }
        throw e;
    }
}
