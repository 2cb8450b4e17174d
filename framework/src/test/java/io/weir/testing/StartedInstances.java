package io.weir.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * The instances a test started, restarts included, SIGKILLed when it ends if they still run: a
 * failed assertion must not leave processes behind that hold the group's tasks.
 */
public final class StartedInstances implements AutoCloseable {

    private final List<OpsInstance> started = new ArrayList<>();

    /** Keeps {@code instance} for {@link #close} and returns it. */
    public OpsInstance add(OpsInstance instance) {
        started.add(instance);
        return instance;
    }

    @Override
    public void close() {
        started.forEach(OpsInstance::close);
    }
}
