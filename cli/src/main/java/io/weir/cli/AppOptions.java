package io.weir.cli;

import io.weir.config.WeirConfig;
import java.io.PrintWriter;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What every command on one application takes ({@code @Mixin}): the application ({@code --app}),
 * how to reach its cluster ({@link ClusterOptions}), and the command line it was given on, where
 * the command prints and what a usage error names.
 */
final class AppOptions {

    @Option(names = "--app", paramLabel = "ID", required = true, description = "the application.id")
    String id;

    @Mixin
    ClusterOptions cluster;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The application's settings, as the application itself would read them. */
    WeirConfig config() {
        return cluster.config(id);
    }

    /** An admin client with the application's admin settings; the caller closes it. */
    Admin admin(WeirConfig config) {
        return cluster.admin(config);
    }

    CommandLine commandLine() {
        return command.commandLine();
    }

    PrintWriter out() {
        return commandLine().getOut();
    }

    PrintWriter err() {
        return commandLine().getErr();
    }

    /** A usage error (exit {@value Weir#USAGE}) of the command, followed by its usage. */
    CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(commandLine(), message);
    }
}
