package dev.verbs4j.softroce.engine;

import dev.verbs4j.QpAttrMask;
import dev.verbs4j.QpState;
import dev.verbs4j.QpType;

/**
 * Which {@code modify} calls are legal: the state transitions of IBTA 10.3.1 and, per
 * transition and transport, the attributes that must and may be given (the table the
 * kernel's {@code ib_modify_qp_is_ok} enforces). Anything else is {@code EINVAL}.
 */
final class QpTransitions {
    private static final int STATE = QpAttrMask.STATE.value();
    private static final int CUR = QpAttrMask.CUR_STATE.value();
    private static final int ACCESS = QpAttrMask.ACCESS_FLAGS.value();
    private static final int PKEY = QpAttrMask.PKEY_INDEX.value();
    private static final int PORT = QpAttrMask.PORT.value();
    private static final int QKEY = QpAttrMask.QKEY.value();
    private static final int AV = QpAttrMask.AV.value();
    private static final int MTU = QpAttrMask.PATH_MTU.value();
    private static final int TIMEOUT = QpAttrMask.TIMEOUT.value();
    private static final int RETRY = QpAttrMask.RETRY_CNT.value();
    private static final int RNR_RETRY = QpAttrMask.RNR_RETRY.value();
    private static final int RQ_PSN = QpAttrMask.RQ_PSN.value();
    private static final int RD_ATOMIC = QpAttrMask.MAX_QP_RD_ATOMIC.value();
    private static final int MIN_RNR = QpAttrMask.MIN_RNR_TIMER.value();
    private static final int SQ_PSN = QpAttrMask.SQ_PSN.value();
    private static final int DEST_RD_ATOMIC = QpAttrMask.MAX_DEST_RD_ATOMIC.value();
    private static final int DEST_QPN = QpAttrMask.DEST_QPN.value();
    private static final int ALT = QpAttrMask.ALT_PATH.value() | QpAttrMask.PATH_MIG_STATE.value();
    private static final int SQD_NOTIFY = QpAttrMask.EN_SQD_ASYNC_NOTIFY.value();

    private QpTransitions() {
    }

    /** The attribute bits that must be given for {@code from → to}, or -1 if the transition is illegal. */
    static int required(QpType type, QpState from, QpState to) {
        if (to == QpState.RESET || to == QpState.ERR) {
            return STATE;
        }
        return switch (from) {
            case RESET -> to == QpState.INIT ? STATE | PKEY | PORT | (type == QpType.UD ? QKEY : ACCESS) : -1;
            case INIT -> switch (to) {
                case INIT -> 0;
                case RTR -> STATE | switch (type) {
                    case RC -> AV | MTU | DEST_QPN | RQ_PSN | DEST_RD_ATOMIC | MIN_RNR;
                    case UC -> AV | MTU | DEST_QPN | RQ_PSN;
                    case UD -> 0;
                };
                default -> -1;
            };
            case RTR -> to == QpState.RTS ? STATE | SQ_PSN | (type == QpType.RC ? TIMEOUT | RETRY | RNR_RETRY | RD_ATOMIC : 0) : -1;
            case RTS -> to == QpState.RTS || to == QpState.SQD ? (to == QpState.SQD ? STATE : 0) : -1;
            case SQD -> to == QpState.RTS || to == QpState.SQD ? (to == QpState.RTS ? STATE : 0) : -1;
            case SQE -> to == QpState.RTS ? STATE : -1;
            case ERR, UNKNOWN -> -1;
        };
    }

    /** The attribute bits that may be given for {@code from → to} besides the required ones. */
    static int optional(QpType type, QpState from, QpState to) {
        if (to == QpState.RESET || to == QpState.ERR) {
            return CUR;
        }
        boolean ud = type == QpType.UD;
        boolean rc = type == QpType.RC;
        return switch (from) {
            case RESET -> 0;
            case INIT -> to == QpState.INIT ? PKEY | PORT | (ud ? QKEY : ACCESS)
                    : (ud ? PKEY | QKEY : PKEY | ACCESS | ALT);
            case RTR -> CUR | (ud ? QKEY : ACCESS | ALT | (rc ? MIN_RNR : 0));
            case RTS, SQE -> CUR | (ud ? QKEY : ACCESS | ALT | (rc ? MIN_RNR : 0));
            case SQD -> CUR | SQD_NOTIFY | (ud ? QKEY | PKEY | PORT
                    : ACCESS | ALT | AV | PKEY | PORT | (rc ? MIN_RNR | TIMEOUT | RETRY | RNR_RETRY | RD_ATOMIC | DEST_RD_ATOMIC : 0));
            case ERR, UNKNOWN -> 0;
        } | (from == QpState.RTS && to == QpState.SQD ? SQD_NOTIFY : 0);
    }
}
