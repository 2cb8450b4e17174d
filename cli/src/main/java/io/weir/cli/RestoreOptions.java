package io.weir.cli;

import io.weir.internal.savepoint.SavepointRestore;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How a savepoint's state carries into a topology that changed ({@code @Mixin}): {@code savepoint
 * restore} and {@code upgrade} load it the same way.
 */
final class RestoreOptions {

    @Option(
            names = "--allow-dropped-state",
            description = "let the new topology drop the state of stores it no longer has")
    boolean allowDroppedState;

    @Option(
            names = "--map-topic",
            paramLabel = "OLD=NEW",
            description = "the new topology reads NEW where the savepoint's read OLD")
    Map<String, String> topicMap = new LinkedHashMap<>();

    @Option(
            names = "--map-store",
            paramLabel = "OLD=NEW",
            description = "load the savepoint's store OLD into the new topology's store NEW (a renamed store);"
                    + " checked like a store that kept its name")
    Map<String, String> storeMap = new LinkedHashMap<>();

    SavepointRestore.Options options() {
        return new SavepointRestore.Options(allowDroppedState, topicMap, storeMap);
    }
}
