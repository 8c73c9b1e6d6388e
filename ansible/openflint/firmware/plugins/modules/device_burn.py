#!/usr/bin/python
# -*- coding: utf-8 -*-
# device_burn: brings one device to an image's firmware (failsafe burn, identity kept, optional safe reset).
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: device_burn
short_description: Burn a firmware image into a device, idempotently
description:
  - Brings a device to the firmware of an image file or of its board's image in a package (an MFA
    archive or an MFA2 package, told apart by content), with C(flint -d DEVICE -i IMAGE burn --json)
    (failsafe unless O(failsafe=false)).
  - Idempotent. The device's flash and the image are queried first (C(flint query --json)); when
    the flash already holds the image's firmware version and PSID nothing is burned and the task
    reports C(ok). C(changed) is true only when flash was written (or, with O(reset), the device was
    reset to run the new firmware).
  - The board's identity (GUIDs, MACs, VSD, device data) is always kept, as flint does by default.
  - Check mode queries only and reports what would change; diff mode shows the old and new
    versions (flash and running).
  - With O(reset) the device is reset afterwards through flint's safe reset
    (C(flint -d DEVICE reset --json)) when the running firmware differs from the image's; a
    device whose driver is bound refuses the reset and the task fails with the reason.
version_added: 0.1.0
author: openflint developers
extends_documentation_fragment:
  - openflint.firmware.common
options:
  device:
    description: Device name as flint takes it with C(-d) (C(sim:DIR), a BDF, C(mt4115_pciconf0), C(lid-N), ...).
    type: str
    required: true
  image:
    description: Firmware image file, or a package (MFA archive, MFA2 package) whose board O(psid) picks.
    type: path
    required: true
  psid:
    description:
      - Board PSID to take from an MFA archive or MFA2 package. Default, the PSID on the device's flash.
      - Ignored for a plain image file (its PSID is in the image).
    type: str
  allow_psid_change:
    description: Allow an image whose PSID differs from the device's (flint C(--allow_psid_change)).
    type: bool
    default: false
  failsafe:
    description: Burn failsafe (the old image stays bootable until the new one is complete). C(false) is flint C(--nofs).
    type: bool
    default: true
  force:
    description:
      - Burn even when the flash already holds the image's version and PSID (a failsafe burn then
        writes the image again, into the other copy, and the task reports C(changed)).
      - A device whose flash holds no valid image is burned without it.
    type: bool
    default: false
  reset:
    description: After the burn (or when the new firmware waits on flash), reset the device so that it runs.
    type: bool
    default: false
attributes:
  check_mode:
    support: full
  diff_mode:
    support: full
notes:
  - Roll updates out in batches with C(serial) and C(max_fail_percentage); the collection's role
    C(openflint.firmware.rolling_update) does, with a pre-check and a post-check.
'''

EXAMPLES = r'''
- name: Burn a ConnectX-4 image (failsafe, identity kept), reset so that it runs
  openflint.firmware.device_burn:
    device: mt4115_pciconf0
    image: /srv/firmware/fw-ConnectX4.bin
    reset: true

- name: Take the board's image out of an MFA archive (the PSID on the device picks it)
  openflint.firmware.device_burn:
    device: "{{ item }}"
    image: /srv/firmware/fw-ConnectX4.mfa
  loop: "{{ ansible_facts.openflint_devices.keys() | list }}"

- name: The same from an MFA2 package (what devlink and fwupd take; flint archive create makes one)
  openflint.firmware.device_burn:
    device: mt4119_pciconf0
    image: /srv/firmware/fw-ConnectX5.mfa2

- name: What would change (nothing is written)
  openflint.firmware.device_burn:
    device: sim:/var/tmp/hca0
    image: /srv/firmware/new.bin
  check_mode: true
  diff: true
'''

RETURN = r'''
device:
  description: The device name.
  returned: always
  type: str
image_version:
  description: The firmware version of the image (of the board picked from a package).
  returned: always
  type: str
  sample: 12.28.2006
image_psid:
  description: The image's PSID.
  returned: always
  type: str
before:
  description: The device's facts before (as openflint.firmware.device_facts reports one device).
  returned: always
  type: dict
after:
  description: The device's facts after the task (equal to before when nothing was done or in check mode).
  returned: always
  type: dict
burned:
  description: Whether flash was written.
  returned: always
  type: bool
reset_done:
  description: Whether the device was reset.
  returned: always
  type: bool
burn:
  description: flint's burn document (docs/json.md), when a burn ran.
  returned: when a burn ran
  type: dict
  sample: {ok: true, previous_fw_version: 12.27.1016, new_fw_version: 12.28.2006, sectors_erased: 12, bytes_programmed: 700000}
reset:
  description: flint's reset document, when the device was reset.
  returned: when the device was reset
  type: dict
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.openflint.firmware.plugins.module_utils.openflint import (
    ToolError, common_argument_spec, package_kind, query_device, run_json)


def image_args(module, psid):
    args = ['-i', module.params['image']]
    if psid:
        args += ['--psid', psid]
    return args


def version_text(facts):
    return 'flash: %s (PSID %s)\nrunning: %s\n' % (
        facts.get('flash_fw_version'), facts.get('psid'), facts.get('running_fw_version'))


def plan(module, before, image):
    """(burn, reset): what the device needs to run the image's firmware."""
    p = module.params
    differs = (not before['ok'] or before.get('flash_fw_version') != image.get('fw_version')
               or before.get('psid') != image.get('psid'))
    burn = differs or p['force']
    reset = p['reset'] and (burn or before.get('running_fw_version') != image.get('fw_version'))
    return burn, reset


def burn(module, psid):
    p = module.params
    args = ['-d', p['device']] + image_args(module, psid) + ['-y']
    if not p['failsafe']:
        args.append('--nofs')
    if p['allow_psid_change']:
        args.append('--allow_psid_change')
    _rc, doc = run_json(module, 'flint', args + ['burn'])
    return doc


def main():
    spec = common_argument_spec()
    spec.update(
        device=dict(type='str', required=True),
        image=dict(type='path', required=True),
        psid=dict(type='str'),
        allow_psid_change=dict(type='bool', default=False),
        failsafe=dict(type='bool', default=True),
        force=dict(type='bool', default=False),
        reset=dict(type='bool', default=False),
    )
    module = AnsibleModule(argument_spec=spec, supports_check_mode=True)
    p = module.params
    result = dict(changed=False, device=p['device'], burned=False, reset_done=False)
    try:
        before, _doc = query_device(module, p['device'])
        result['before'] = before
        psid = None
        kind = package_kind(p['image'])
        if kind:
            psid = p['psid'] or before.get('psid')
            if not psid:
                module.fail_json(msg='%s is an %s and the device shows no PSID: give psid' % (p['image'], kind),
                                 **result)
        _rc, image = run_json(module, 'flint', image_args(module, psid) + ['query'])
        result['image_version'] = image.get('fw_version')
        result['image_psid'] = image.get('psid')

        if (before['ok'] and before.get('psid') != image.get('psid') and not p['allow_psid_change']):
            # flint refuses it too; saying so here also keeps check mode from promising a change.
            module.fail_json(msg='the image\'s PSID %s differs from the PSID %s on %s: set allow_psid_change if '
                             'this board really should take it' % (image.get('psid'), before.get('psid'), p['device']),
                             **result)
        need_burn, need_reset = plan(module, before, image)
        after = dict(before)
        if module.check_mode:
            result['changed'] = need_burn or need_reset
            if need_burn:
                after.update(flash_fw_version=image.get('fw_version'), psid=image.get('psid'), ok=True)
            if need_reset:
                after['running_fw_version'] = image.get('fw_version')
        else:
            if need_burn:
                doc = burn(module, psid)
                result['burn'] = doc
                result['burned'] = doc.get('sectors_erased', 0) > 0 or doc.get('bytes_programmed', 0) > 0
            if need_reset:
                _rc, result['reset'] = run_json(module, 'flint', ['-d', p['device'], 'reset'])
                result['reset_done'] = True
            if need_burn or need_reset:
                after, _doc = query_device(module, p['device'])
            result['changed'] = result['burned'] or result['reset_done']
        result['after'] = after
        if module._diff:
            result['diff'] = dict(before_header='%s (before)' % p['device'], before=version_text(before),
                                  after_header='%s (after)' % p['device'], after=version_text(after))
        if not module.check_mode and (need_burn or need_reset) and after.get('flash_fw_version') != image.get('fw_version'):
            module.fail_json(msg='after the burn %s holds %s, not the image\'s %s'
                             % (p['device'], after.get('flash_fw_version'), image.get('fw_version')), **result)
    except ToolError as e:
        failure = e.as_result()
        failure.update(result)
        module.fail_json(**failure)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
