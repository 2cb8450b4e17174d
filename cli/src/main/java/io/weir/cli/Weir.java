package io.weir.cli;

import io.weir.errors.ClusterException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code weir} command: operates Weir applications on a Kafka cluster, with Kafka as the only
 * infrastructure. Every subcommand talks to the cluster through the settings of
 * {@link ClusterOptions} (the same sources as an application's: {@code --config FILE},
 * {@code WEIR_*} variables, {@code --bootstrap-servers}).
 *
 * <p>Exit codes, the same for every subcommand: {@value #OK} done; {@value #FAILED} the operation
 * failed or was refused, by Weir or by the cluster (the reason on stderr, one line); {@value #USAGE} bad arguments (the
 * message names the option, then the usage). {@code weir diff} also exits {@value #FAILED} when the
 * two sides differ, as {@code diff(1)} does.
 */
@Command(
        name = "weir",
        mixinStandardHelpOptions = true,
        versionProvider = Weir.VersionProvider.class,
        usageHelpAutoWidth = true,
        sortOptions = false,
        description = "Operates Weir applications on a Kafka cluster: describe them, plan and create their"
                + " topics, reset them for a replay, take and restore savepoints, compare outputs, plan their ACLs, inspect"
                + " and resend their dead letters.",
        subcommands = {
            CommandLine.HelpCommand.class,
            DescribeCommand.class,
            TopicsCommand.class,
            ResetCommand.class,
            DiffCommand.class,
            TopologyCommand.class,
            SavepointCommand.class,
            StopCommand.class,
            UpgradeCommand.class,
            ReplayCommand.class,
            CleanupCommand.class,
            AclsCommand.class,
            DlqCommand.class
        })
public final class Weir implements Callable<Integer> {

    /** Done. */
    public static final int OK = 0;
    /** The operation failed or was refused; or, for {@code diff}, the sides differ. */
    public static final int FAILED = 1;
    /** Bad arguments. */
    public static final int USAGE = 2;

    /** What follows a refusal for a missing ACL. */
    private static final String MISSING_ACL = " (an ACL is missing: weir acls plan --tools lists what the application"
            + " and these commands need; diff needs Read on the topics it compares)";

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /**
     * Runs one command line and returns its exit code; what it prints goes to {@code out} and
     * {@code err}. Never calls {@link System#exit}, so tests and tools can run commands in-process.
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cmd = commandLine();
        cmd.setOut(out);
        cmd.setErr(err);
        int code = cmd.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** The command tree with Weir's error handling: usage errors exit 2, failures 1 with one line. */
    static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new Weir());
        withHelpOptions(cmd);
        cmd.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException ? USAGE : FAILED);
        cmd.setParameterExceptionHandler((e, args) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println("weir: " + e.getMessage());
            e.getCommandLine().usage(err);
            return USAGE;
        });
        cmd.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (e instanceof CommandFailedException f) {
                err.println(commandLine.getCommandSpec().qualifiedName() + ": " + f.getMessage());
                return FAILED;
            }
            if (e instanceof ClusterException c) {
                // The cluster refused or did not answer: the message names the request and the reason.
                err.println(commandLine.getCommandSpec().qualifiedName() + ": " + c.getMessage()
                        + (c.getCause() instanceof TimeoutException ? " (check --bootstrap-servers)" : "")
                        + (c.getCause() instanceof org.apache.kafka.common.errors.AuthorizationException
                                ? MISSING_ACL
                                : ""));
                return FAILED;
            }
            if (e instanceof CommandLine.ParameterException p) {
                err.println("weir: " + p.getMessage());
                p.getCommandLine().usage(err);
                return USAGE;
            }
            if (e instanceof io.weir.errors.ConfigException c) {
                err.println(commandLine.getCommandSpec().qualifiedName() + ": " + c.getMessage());
                return USAGE;
            }
            if (e instanceof io.weir.errors.WeirException w) {
                // Weir refused (an incompatible topology, a store in use...): its message says what and why.
                err.println(commandLine.getCommandSpec().qualifiedName() + ": " + w.getMessage());
                return FAILED;
            }
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof org.apache.kafka.common.errors.AuthorizationException denied) {
                    // A client refused outright (Kafka's message names the topics or the group).
                    err.println(commandLine.getCommandSpec().qualifiedName() + ": the cluster refused: "
                            + denied.getClass().getSimpleName() + ": " + denied.getMessage() + MISSING_ACL);
                    return FAILED;
                }
            }
            err.println(commandLine.getCommandSpec().qualifiedName() + " failed: " + e);
            Throwable cause = e.getCause();
            while (cause != null) {
                err.println("  caused by: " + cause);
                cause = cause.getCause();
            }
            return FAILED;
        });
        return cmd;
    }

    /**
     * Gives every command of the tree {@code -h/--help} and {@code -V/--version}: picocli handles
     * them before it checks required options, so {@code weir topology diff --help} prints the usage
     * and exits {@value #OK} instead of "Missing required options". The {@code help} command has its
     * own {@code --help}.
     */
    private static void withHelpOptions(CommandLine cmd) {
        CommandSpec spec = cmd.getCommandSpec();
        if (spec.findOption("--help") == null) {
            spec.mixinStandardHelpOptions(true);
            if (spec.versionProvider() == null) {
                spec.versionProvider(new VersionProvider());
            }
        }
        cmd.getSubcommands().values().forEach(Weir::withHelpOptions);
    }

    /** Without a subcommand: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return USAGE;
    }

    /** {@code weir --version}: Weir's version, from the framework jar. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"weir " + io.weir.internal.config.WeirVersion.current()};
        }
    }
}
