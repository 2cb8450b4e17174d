package io.weir.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir stop --app ID --savepoint}: takes a final savepoint and stops every instance right
 * after its cut (nothing is processed after it), so a new version can start from exactly where the
 * old one stopped. The instances leave the group and their processes exit 0.
 */
@Command(name = "stop", description = "Stops the running application after a final savepoint (--savepoint).")
final class StopCommand implements Callable<Integer> {

    @Mixin
    AppOptions app;

    @Option(
            names = "--savepoint",
            required = true,
            description = "take a final savepoint and stop after it (the only way Weir stops an application;"
                    + " otherwise stop its processes)")
    boolean savepoint;

    @Option(names = "--id", paramLabel = "ID", description = "the savepoint's id (default: sp-<UTC time>)")
    String id;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            defaultValue = "120",
            description =
                    "give up (and abort; the application keeps running) after this long (default: ${DEFAULT-VALUE})")
    int timeoutSeconds;

    @Override
    public Integer call() {
        SavepointCommand.take(app, id, true, timeoutSeconds);
        app.out().println("the instances of " + app.id + " stop now");
        return Weir.OK;
    }
}
