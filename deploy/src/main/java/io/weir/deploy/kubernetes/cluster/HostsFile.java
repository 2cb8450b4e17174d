package io.weir.deploy.kubernetes.cluster;

import java.util.Map;
import java.util.TreeMap;

/**
 * The runner's block in a pod's {@code /etc/hosts}: the cluster DNS records it plays, between two
 * marker lines, after whatever Podman wrote (localhost, the pod's own name,
 * {@code host.containers.internal}), which is kept as it is.
 */
final class HostsFile {

    static final String BEGIN = "# cluster DNS played by the Weir scenario runner";
    static final String END = "# end of cluster DNS";

    private HostsFile() {}

    /** {@code hosts} with the runner's block replaced by {@code records} (name to address). */
    static String withRecords(String hosts, Map<String, String> records) {
        String kept = hosts;
        int begin = hosts.indexOf(BEGIN);
        if (begin >= 0) {
            int end = hosts.indexOf(END, begin);
            kept = hosts.substring(0, begin)
                    + (end < 0 ? "" : hosts.substring(end + END.length()).stripLeading());
        }
        StringBuilder out = new StringBuilder(kept);
        if (!kept.isEmpty() && !kept.endsWith("\n")) {
            out.append('\n');
        }
        out.append(BEGIN).append('\n');
        new TreeMap<>(records)
                .forEach((name, address) ->
                        out.append(address).append('\t').append(name).append('\n'));
        return out.append(END).append('\n').toString();
    }
}
