package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class WeirTest {

    /** What one command line printed and returned. */
    record Outcome(int code, String out, String err) {
    }

    static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Weir.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void helpListsTheCommandsAndExitsZero() {
        Outcome o = run("--help");
        assertThat(o.code()).isEqualTo(Weir.OK);
        assertThat(o.out()).contains("Usage: weir", "help");
    }

    @Test
    void versionNamesWeir() {
        Outcome o = run("--version");
        assertThat(o.code()).isEqualTo(Weir.OK);
        assertThat(o.out()).startsWith("weir ");
    }

    @Test
    void noCommandIsAUsageError() {
        Outcome o = run();
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("Usage: weir");
    }

    @Test
    void anUnknownOptionIsNamedAndExitsTwo() {
        Outcome o = run("--frobnicate");
        assertThat(o.code()).isEqualTo(Weir.USAGE);
        assertThat(o.err()).contains("weir: Unknown option: '--frobnicate'");
    }
}
