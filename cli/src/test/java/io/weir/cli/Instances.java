package io.weir.cli;

import io.weir.Topology;
import io.weir.WeirApp;
import io.weir.testing.TestApps;
import java.nio.file.Path;

/** Application instances in the test's JVM that a test restarts on the state it left. */
final class Instances {

    private Instances() {}

    /** An instance with the given state directory and instance id, no HTTP port clash, no WEIR_* environment. */
    static WeirApp start(Topology topology, String bootstrap, String appId, Path stateDir, String instanceId) {
        return TestApps.start(
                topology,
                TestApps.config(bootstrap, appId)
                        .stateDir(stateDir)
                        .instanceId(instanceId)
                        .build());
    }
}
