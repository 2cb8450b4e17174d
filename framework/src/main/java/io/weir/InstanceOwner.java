package io.weir;

/** What the running instance tells its {@link WeirApp}, and asks of it: failures, ticks, stops, state. */
final class InstanceOwner implements RunningInstance.Owner {

    private final WeirApp app;
    private final Lifecycle lifecycle;
    private final Shutdown shutdown;

    InstanceOwner(WeirApp app, Lifecycle lifecycle, Shutdown shutdown) {
        this.app = app;
        this.lifecycle = lifecycle;
        this.shutdown = shutdown;
    }

    @Override
    public void threadFailed(Throwable failure) {
        shutdown.threadFailed(failure);
    }

    @Override
    public void tick() {
        app.running().ifPresent(i -> lifecycle.follow(i.monitor()));
    }

    /**
     * A savepoint requested with stop ({@code weir stop --savepoint}) was written: the instance
     * closes and leaves the group, on a thread of its own, and {@link WeirApp#runUntilShutdown()} returns.
     */
    @Override
    public void stopAfterSavepoint() {
        shutdown.afterSavepoint();
    }

    @Override
    public WeirApp.State state() {
        return lifecycle.get();
    }

    @Override
    public String statusLine() {
        return InstanceStatus.of(app);
    }
}
