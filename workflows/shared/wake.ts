// The `wake` signal, one definition for every workflow that waits (pure: workflows and their clients import it).
import { defineSignal } from '@temporalio/workflow';

/** Payload-less: "look again" (the clock moved, or what the wait was for changed: a reschedule, a cancel). */
export const wakeSignal = defineSignal('wake');
