package io.weir.testkit;

import java.nio.file.Path;

/**
 * One KRaft node of a cluster this module starts: its id, roles, ports and directory. A broker
 * port of 0 is bound by the node at start ({@link ClusterLayout#withBoundPorts} then gives the
 * real one); other ports are fixed for the life of the cluster so that a restarted node comes
 * back at the same address.
 */
record NodeSpec(int nodeId, Role role, int brokerPort, int controllerPort, Path dir) {

    /** KRaft {@code process.roles}. */
    enum Role {
        COMBINED("broker,controller"),
        BROKER("broker"),
        CONTROLLER("controller");

        final String processRoles;

        Role(String processRoles) {
            this.processRoles = processRoles;
        }

        boolean isBroker() {
            return this != CONTROLLER;
        }

        boolean isController() {
            return this != BROKER;
        }
    }

    static final String HOST = "127.0.0.1";

    Path dataDir() {
        return dir.resolve("data");
    }

    Path propertiesFile() {
        return dir.resolve("server.properties");
    }

    Path logFile() {
        return dir.resolve("broker.log");
    }

    String brokerAddress() {
        return HOST + ":" + brokerPort;
    }

    String voter() {
        return nodeId + "@" + HOST + ":" + controllerPort;
    }
}
