// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title SanctionsOracle
/// @notice The sandbox's stand-in for Chainalysis's sanctions oracle: the same read interface,
/// isSanctioned(address) view returns (bool), so that peerpay screens addresses on the sandbox
/// chain exactly as it does on Polygon. Sandbox tests list and unlist addresses through
/// POST /test-helpers/sanctions, which calls setSanctioned as the owner.
///
/// The code is placed at a fixed address with anvil_setCode, so no constructor runs: the owner is
/// a constant (an address nobody holds a key for; the embedded chain impersonates it), and the
/// contract needs no initialisation transaction, so a fresh sandbox chain's blocks stay as they
/// were and the installation identity (which records block 1) is unaffected.
///
/// Storage layout rule: variables are only ever appended (a chain kept in DATA_DIR holds the list).
contract SanctionsOracle {
    /// The last 20 bytes of keccak256("peerpay sandbox sanctions oracle owner").
    address public constant OWNER = 0x9F92C44ae6814582595c3B39c94AC03b382533Be;

    mapping(address => bool) private _sanctioned;

    event SanctionSet(address indexed account, bool sanctioned);

    error NotOwner();

    /// @notice Whether `account` is on the list, as Chainalysis's oracle answers it.
    function isSanctioned(address account) external view returns (bool) {
        return _sanctioned[account];
    }

    /// @notice Lists (`sanctioned` true) or unlists `account`; the owner only.
    function setSanctioned(address account, bool sanctioned) external {
        if (msg.sender != OWNER) revert NotOwner();
        _sanctioned[account] = sanctioned;
        emit SanctionSet(account, sanctioned);
    }
}
